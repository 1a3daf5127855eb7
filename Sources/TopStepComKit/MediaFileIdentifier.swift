import AIBudsWire
import Foundation

/// What a `TSMediaFileModel.identifier` carries: the device and list generation it came from, and
/// the device's own id and name of the file.
///
/// Encoded as `ts1.` and the base64url of a small JSON object; apps treat it as opaque.
struct MediaFileIdentifier: Codable, Hashable, Sendable {
    /// The identity of the device whose list produced it.
    var device: String
    /// The list generation the file was listed at.
    var generation: UInt64
    /// The device's stable id of the file.
    var id: String
    /// The device file name.
    var name: String
    /// The wire `MediaFileType` raw value.
    var type: Int

    private enum CodingKeys: String, CodingKey {
        case device = "d", generation = "g", id = "i", name = "n", type = "t"
    }

    /// The prefix every identifier of this encoding starts with.
    static let prefix = "ts1."
    /// The longest identifier text `init(encoded:)` looks at; longer text is not one of ours.
    static let maximumLength = 8192

    /// Creates an identifier.
    init(device: String, generation: UInt64, id: String, name: String, type: Int) {
        self.device = device
        self.generation = generation
        self.id = id
        self.name = name
        self.type = type
    }

    /// Parses identifier text; nil for anything this SDK did not produce.
    init?(encoded text: String) {
        guard text.utf8.count <= Self.maximumLength, text.hasPrefix(Self.prefix) else { return nil }
        var base64 = String(text.dropFirst(Self.prefix.count))
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let decoded = try? JSONDecoder().decode(MediaFileIdentifier.self, from: data)
        else { return nil }
        self = decoded
    }

    /// The identifier text.
    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a struct of strings and integers cannot fail.
        let data = (try? encoder.encode(self)) ?? Data()
        let base64 = data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return Self.prefix + base64
    }

    /// Checks that `model` is one this SDK listed for `device`, and returns its identifier.
    ///
    /// Throws `invalidParameter` for a made-up identifier, one from another device, or a model
    /// whose name or type was changed; whether the list is still current is the caller's check.
    static func validated(_ model: TSMediaFileModel, device: String) throws(TSError) -> MediaFileIdentifier {
        guard let identifier = MediaFileIdentifier(encoded: model.identifier) else {
            throw TSError(.invalidParameter, "'\(model.fileName)' has an identifier this SDK did not produce; use a model from fetchMediaFiles")
        }
        guard identifier.device == device else {
            throw TSError(.invalidParameter, "'\(model.fileName)' was listed by another device")
        }
        guard MediaFileName.same(identifier.name, model.fileName), TSMediaFileType(wireType: identifier.type) == model.type else {
            throw TSError(.invalidParameter, "'\(model.fileName)' does not match its identifier; use a model from fetchMediaFiles unchanged")
        }
        return identifier
    }
}
