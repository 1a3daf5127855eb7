import AIBudsDigest

/// The bytes of a hexadecimal string ("a1 61 62" or "a16162"); traps on bad test input.
func hex(_ text: String) -> [UInt8] { [UInt8](hexadecimal: text)! }
