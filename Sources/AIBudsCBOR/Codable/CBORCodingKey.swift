/// A coding key made at run time: array indices, "super", and the keys of foreign maps.
struct CBORCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

extension Array where Element == any CodingKey {
    /// The path as people write it: `files[2].size`, or `(top level)` when empty.
    package var pathDescription: String {
        guard !isEmpty else { return "(top level)" }
        var text = ""
        for key in self {
            if let index = key.intValue, key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
