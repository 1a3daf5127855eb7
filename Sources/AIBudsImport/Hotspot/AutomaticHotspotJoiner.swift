import AIBudsLog

/// Picks the joiner by the data plane's address: a loopback address (an emulated device on this
/// host) needs nothing joined; any other goes through NetworkManager.
public struct AutomaticHotspotJoiner: HotspotJoiner {
    /// The joiner for real hotspots.
    public var networkManager: NetworkManagerHotspotJoiner

    /// Creates the joiner; `logger` receives the NetworkManager joiner's messages.
    public init(logger: any LogService = NullLogService()) {
        networkManager = NetworkManagerHotspotJoiner(logger: logger)
    }

    /// Joins `network` with the loopback or the NetworkManager joiner.
    public func join(_ network: HotspotNetwork) async throws {
        if let host = network.baseURL.host, LoopbackHotspotJoiner.isLoopback(host) {
            try await LoopbackHotspotJoiner().join(network)
        } else {
            try await networkManager.join(network)
        }
    }
}
