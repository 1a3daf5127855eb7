import AIBudsDigest
import Foundation

/// Turns device file names, which may be hostile, into safe local file names.
///
/// A safe name is one path component: no `/`, no NUL or other control or format characters, not
/// hidden (no leading `.`, so never `.`, `..` or `.partial`), normalized to NFC, and at most
/// `maxUTF8Length` bytes. Within one batch, names that would be equal on a case-insensitive or
/// normalizing file system get distinct names (`name (2).ext`).
public enum SafeFileName {
    /// The longest local name, in UTF-8 bytes; leaves room below the usual 255-byte limit for
    /// the `.part` suffix and a ` (N)` uniquifier.
    public static let maxUTF8Length = 200

    /// The safe local name of one device file name; throws `TransferError.unsafeFileName` when
    /// nothing usable is left (an empty name).
    public static func make(from deviceName: String) throws -> String {
        var name: String
        if isPlainASCII(deviceName) {
            // Nothing to normalize or replace (the common case).
            name = deviceName
        } else {
            var scalars = String.UnicodeScalarView()
            for scalar in deviceName.precomposedStringWithCanonicalMapping.unicodeScalars {
                scalars.append(isForbidden(scalar) ? "_" : scalar)
            }
            name = String(scalars)
        }
        guard !name.isEmpty else {
            throw TransferError(.unsafeFileName, "the device file name is empty")
        }
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        if name.utf8.count > maxUTF8Length { name = shortened(name, original: deviceName) }
        return name
    }

    /// Safe, mutually distinct local names for a batch, in order; a name that cannot be made
    /// safe gets a per-file error instead.
    ///
    /// A device name that is already safe keeps exactly its name (whatever its place in the
    /// batch); the others take their safe form, numbered (`name (2).ext`) when another file of the
    /// batch has it. So `café.jpg` in NFC stays `café.jpg` and its NFD twin becomes `café (2).jpg`,
    /// `a_b.jpg` stays and `a\u{200D}b.jpg` becomes `a_b (2).jpg`.
    public static func assign(_ deviceNames: [String]) -> [Result<String, TransferError>] {
        let bases = deviceNames.map { deviceName in
            Result { try make(from: deviceName) }.mapError { $0 as? TransferError ?? TransferError(.unsafeFileName, "\($0)") }
        }
        var taken = Set<String>()
        var assigned = [Result<String, TransferError>?](repeating: nil, count: deviceNames.count)
        for (index, base) in bases.enumerated() {
            // Compare bytes: `String` equality would take an NFD name for its NFC safe form.
            guard case .success(let name) = base, name.utf8.elementsEqual(deviceNames[index].utf8),
                taken.insert(collisionKey(name)).inserted
            else { continue }
            assigned[index] = base
        }
        return bases.enumerated().map { index, base in
            if let done = assigned[index] { return done }
            return base.map { base in
                var candidate = base
                var counter = 2
                while !taken.insert(collisionKey(candidate)).inserted {
                    candidate = numbered(base, counter)
                    counter += 1
                }
                return candidate
            }
        }
    }

    /// Whether a local name is already safe: what `make` would return for it unchanged.
    public static func isSafe(_ localName: String) -> Bool {
        // Printable ASCII needs no normalization: check it directly (the common case).
        let bytes = localName.utf8
        if !bytes.isEmpty, bytes.count <= maxUTF8Length, bytes.first != UInt8(ascii: "."), isPlainASCII(localName) {
            return true
        }
        // Compare bytes: `String` equality would take an NFD name for its NFC form.
        guard let made = try? make(from: localName) else { return false }
        return made.utf8.elementsEqual(localName.utf8)
    }

    /// The key under which two names collide: case-folded and NFC-normalized.
    static func collisionKey(_ name: String) -> String {
        isPlainASCII(name) ? name.lowercased() : name.lowercased().precomposedStringWithCanonicalMapping
    }

    /// Whether `name` is printable ASCII without `/` or `\`: already normalized, nothing to replace.
    private static func isPlainASCII(_ name: String) -> Bool {
        name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") }
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "/" || scalar == "\\" { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: return true
        default: return false
        }
    }

    /// Splits `name.ext` into the stem and the extension (dot included) when the extension is
    /// short and the stem is not empty.
    private static func splitExtension(_ name: String) -> (stem: Substring, ext: Substring) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name[...], "") }
        let ext = name[dot...]
        guard ext.utf8.count <= 16 else { return (name[...], "") }
        return (name[..<dot], ext)
    }

    /// A long name cut to fit, keeping the extension and adding a digest of the full name so
    /// different long names stay different.
    private static func shortened(_ name: String, original: String) -> String {
        let (stem, ext) = splitExtension(name)
        let digest = "~" + SHA256.hash(Array(original.utf8)).prefix(4).hexString
        let budget = maxUTF8Length - ext.utf8.count - digest.utf8.count
        var kept = ""
        for character in stem {
            guard kept.utf8.count + character.utf8.count <= budget else { break }
            kept.append(character)
        }
        return kept + digest + ext
    }

    /// `stem (LABEL).ext` (`name (LABEL)` without an extension of at most 16 bytes): the name of
    /// the next copy when `name` is taken, `label` being its number or another distinguishing text.
    public static func numbered(_ name: String, _ label: String) -> String {
        let (stem, ext) = splitExtension(name)
        return "\(stem) (\(label))\(ext)"
    }

    /// `stem (N).ext`: the name of copy number `counter` when `name` is taken.
    public static func numbered(_ name: String, _ counter: Int) -> String {
        numbered(name, String(counter))
    }
}
