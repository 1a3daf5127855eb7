import AIBudsSync
import Foundation

/// Everything `device.connect(_:)` needs: the user and the AI providers' credentials.
///
/// A class with settable properties, as in the vendor's API (`let p = ConnectParams(); p.userId = "199"`).
/// Its properties are guarded by a lock, so one instance may be shared across threads.
public final class ConnectParams: Sendable, Codable, CustomStringConvertible {
    private struct Fields: Codable {
        var userId: String?
        var randomCode: String?
        var enableClassicBT = false
        var aiAuthParams: AIAuthParams?
    }

    private let fields: Locked<Fields>

    /// Creates empty parameters.
    public init() { fields = Locked(Fields()) }

    /// Identifies the end user on the AI providers' side.
    public var userId: String? {
        get { fields.withLock { $0.userId } }
        set { fields.withLock { $0.userId = newValue } }
    }
    /// A random code for pairing confirmation, when the device asks for one.
    public var randomCode: String? {
        get { fields.withLock { $0.randomCode } }
        set { fields.withLock { $0.randomCode = newValue } }
    }
    /// Whether to connect classic Bluetooth (audio) too; no effect on links without it.
    public var enableClassicBT: Bool {
        get { fields.withLock { $0.enableClassicBT } }
        set { fields.withLock { $0.enableClassicBT = newValue } }
    }
    /// The AI providers' credentials.
    public var aiAuthParams: AIAuthParams? {
        get { fields.withLock { $0.aiAuthParams } }
        set { fields.withLock { $0.aiAuthParams = newValue } }
    }

    /// Decodes the parameters.
    public init(from decoder: any Decoder) throws {
        fields = Locked(try Fields(from: decoder))
    }

    /// Encodes the parameters.
    public func encode(to encoder: any Encoder) throws {
        try fields.withLock { $0 }.encode(to: encoder)
    }

    /// Names which fields are set, never their values.
    public var description: String {
        let f = fields.withLock { $0 }
        return "ConnectParams(userId: \(f.userId == nil ? "nil" : "set"), classicBT: \(f.enableClassicBT), "
            + "aiAuth: \(f.aiAuthParams == nil ? "nil" : "set"))"
    }
}

/// The AI providers' credentials used in the connection handshake.
public final class AIAuthParams: Sendable, Codable {
    private struct Fields: Codable {
        var starburst: StarBurstAIAuthParams?
        var mltcloud: MltCloudAIAuthParams?
    }

    private let fields: Locked<Fields>

    /// Creates empty credentials.
    public init() { fields = Locked(Fields()) }

    /// StarBurst AI (ByteDance) credentials.
    public var starburst: StarBurstAIAuthParams? {
        get { fields.withLock { $0.starburst } }
        set { fields.withLock { $0.starburst = newValue } }
    }
    /// MltCloud AI (Meilc) credentials.
    public var mltcloud: MltCloudAIAuthParams? {
        get { fields.withLock { $0.mltcloud } }
        set { fields.withLock { $0.mltcloud = newValue } }
    }

    /// Decodes the credentials.
    public init(from decoder: any Decoder) throws { fields = Locked(try Fields(from: decoder)) }
    /// Encodes the credentials.
    public func encode(to encoder: any Encoder) throws { try fields.withLock { $0 }.encode(to: encoder) }
}

/// StarBurst AI (ByteDance) credentials.
public final class StarBurstAIAuthParams: Sendable, Codable {
    private struct Fields: Codable {
        var authSdk: Int?
        var productId: String?
        var ppeEnv: String?
    }

    private let fields: Locked<Fields>

    /// Creates empty credentials.
    public init() { fields = Locked(Fields()) }

    /// Which StarBurst auth SDK to use, when the provider offers several.
    public var authSdk: NSNumber? {
        get { fields.withLock { $0.authSdk }.map { NSNumber(value: $0) } }
        set { fields.withLock { $0.authSdk = newValue?.intValue } }
    }
    /// The product identifier issued by StarBurst.
    public var productId: String? {
        get { fields.withLock { $0.productId } }
        set { fields.withLock { $0.productId = newValue } }
    }
    /// The pre-production environment to use, if any.
    public var ppeEnv: String? {
        get { fields.withLock { $0.ppeEnv } }
        set { fields.withLock { $0.ppeEnv = newValue } }
    }

    /// Decodes the credentials.
    public init(from decoder: any Decoder) throws { fields = Locked(try Fields(from: decoder)) }
    /// Encodes the credentials.
    public func encode(to encoder: any Encoder) throws { try fields.withLock { $0 }.encode(to: encoder) }
}

/// MltCloud AI (Meilc) credentials.
public final class MltCloudAIAuthParams: Sendable, Codable {
    private let storedChannelId: Locked<String?>

    /// Creates empty credentials.
    public init() { storedChannelId = Locked(nil) }

    /// The channel identifier issued by MltCloud.
    public var channelId: String? {
        get { storedChannelId.withLock { $0 } }
        set { storedChannelId.withLock { $0 = newValue } }
    }

    private enum CodingKeys: String, CodingKey { case channelId }

    /// Decodes the credentials.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        storedChannelId = Locked(try c.decodeIfPresent(String.self, forKey: .channelId))
    }

    /// Encodes the credentials.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(channelId, forKey: .channelId)
    }
}
