/// The HTTP data plane a device opens in transfer mode.
///
/// The emulator starts it when the hotspot opens and stops it when transfer mode ends (or the
/// session ends). `AIBudsEmulator/DataPlane` holds the real HTTP server; tests may pass any
/// conforming type.
public protocol TransferDataPlane: Sendable {
    /// Starts serving `store` to clients that present `token`; returns the base URL
    /// (`http://HOST:PORT`).
    func start(store: MediaStore, token: String) throws -> String
    /// Stops serving; the token is void afterwards. Idempotent.
    func stop()
    /// Closes every open connection and keeps serving: the responses in flight end.
    func dropConnections()
}
