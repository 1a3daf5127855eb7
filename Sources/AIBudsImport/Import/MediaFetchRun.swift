import AIBudsFoundation
import AIBudsLog
import AIBudsWire
import Foundation

/// The steps of `fetchMediaFiles`: configure the hotspot, enter transfer mode, wait for the hotspot,
/// join it, list the media (read while the hotspot opens and is joined). Each failing step throws
/// an `AIBudsError` with its own code.
struct MediaFetchRun: Sendable {
    let channel: any MediaImportControlChannel
    let joiner: any HotspotJoiner
    let configuration: MediaImportEngine.Configuration
    let logger: any LogService

    /// Runs every step, reporting each through `emit`; returns the new session and the models.
    func run(type: MediaFileType?, emit: (MediaFetchEvent) -> Void) async throws -> (TransferSession, [MediaFileInfoModel]) {
        let credentials = HotspotCredentials.generate(ssidPrefix: configuration.ssidPrefix)
        LogRedactor.shared.register(credentials.passphrase)

        emit(.configuringHotspot)
        logger.log(.info, "import", "configuring hotspot '\(credentials.ssid)'")
        try await step(.fileImportFailedDueToHotspotConfigureError, "configuring the device hotspot failed") {
            _ = try await channel.configureHotspot(
                withMode: configuration.hotspotMode, channel: configuration.hotspotChannel,
                ssid: credentials.ssid, password: credentials.passphrase)
        }
        emit(.hotspotConfigured)

        emit(.enteringTransferMode)
        try await step(.fileImportFailedDueToEnterFileTransferModeFailed, "the device did not enter file-transfer mode") {
            try await channel.enterFileTransferMode()
        }
        emit(.transferModeEntered)

        // The list does not need the hotspot: it is read over the control link while the hotspot
        // opens and is joined (seconds on a real device), and awaited after the join. A failing
        // hotspot step cancels it; its own failure is reported after the hotspot steps, as before.
        async let listed = step(.fetchMediaFilesInfoFailedDueToNetworkError, "listing the device's media failed") {
            try await channel.listMediaFiles(type: type)
        }

        emit(.waitingForHotspot)
        let status = try await waitForHotspot()
        guard let baseUrl = status.baseUrl, !baseUrl.isEmpty else {
            throw AIBudsError(.fetchMediaFilesInfoFailedDueToEmptyBaseUrl, "the device opened its hotspot without a data-plane URL")
        }
        guard let url = URL(string: baseUrl), url.scheme == "http", let host = url.host else {
            throw AIBudsError(.fetchMediaFilesInfoFailedDueToInvalidConfigUrl, "the device's data-plane URL '\(baseUrl)' is not http://HOST:PORT")
        }
        // The token and the Wi-Fi join go only to the device's own network (HotspotAddressRule).
        guard HotspotAddressRule.allows(host) else {
            throw AIBudsError(
                .fetchMediaFilesInfoFailedDueToInvalidConfigUrl,
                "the device's data-plane URL '\(baseUrl)' is not on its hotspot: only loopback and private address literals are used")
        }
        guard let token = status.token, !token.isEmpty else {
            throw AIBudsError(.fetchMediaFilesInfoFailedDueToConfigFileError, "the device opened its hotspot without a session token")
        }
        LogRedactor.shared.register(token)
        // Join the network this client configured, whatever the state answer names.
        let ssid = credentials.ssid
        if let reported = status.ssid, reported != ssid {
            logger.log(.warning, "import", "the device reports hotspot '\(reported)', not the configured '\(ssid)'; joining '\(ssid)'")
        }

        emit(.joiningHotspot(ssid: ssid))
        try await step(.fileImportFailedDueToHotspotConnectionFailure, "joining the device hotspot '\(ssid)' failed") {
            try await joiner.join(HotspotNetwork(ssid: ssid, passphrase: credentials.passphrase, baseURL: url))
        }
        emit(.hotspotJoined)

        let listing = try await listed
        logger.log(.info, "import", "device lists \(listing.files.count) media files at generation \(listing.generation)")
        let models = listing.files.map { $0.model(baseUrl: baseUrl, generation: listing.generation) }
        var digests: [MediaFileName: [UInt8]] = [:]
        digests.reserveCapacity(listing.files.count)
        for file in listing.files { if let digest = file.sha256 { digests[MediaFileName(file.name)] = digest } }
        let session = TransferSession(
            baseURL: baseUrl, token: token, ssid: ssid, listGeneration: listing.generation, listedSHA256: digests)
        return (session, models)
    }

    /// Polls the hotspot state until it is open, up to `configuration.hotspotOpenTimeout`.
    private func waitForHotspot() async throws -> HotspotStatusInfo {
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.hotspotOpenTimeout
        while true {
            let status = try await step(.fileImportFailedDueToHotspotConnectionFailure, "reading the device hotspot state failed") {
                try await channel.requestQueryHotspotStatus()
            }
            if status.state == .hotspotOpen || status.state == .wifiDirectConnected { return status }
            if status.state == .wifiDirectFailed || status.state == .wifiDirectTimeout {
                throw AIBudsError(.fileImportFailedDueToHotspotConnectionFailure, "the device reports its hotspot \(status.state)")
            }
            guard clock.now < deadline else {
                throw AIBudsError(
                    .fileImportFailedDueToHotspotConnectionFailure,
                    "the device hotspot did not open within \(configuration.hotspotOpenTimeout) (state \(status.state))")
            }
            try await Task.sleep(for: configuration.hotspotPollInterval)
        }
    }

    /// Runs one step; its failure becomes an `AIBudsError` of `code` that keeps the device's status
    /// code and the cause. Cancellation passes through.
    private func step<T>(_ code: SdkErrorCode, _ message: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            let cause = AIBudsError.from(error)
            logger.log(.warning, "import", "\(message): \(cause)")
            throw AIBudsError(code, "\(message): \(cause.message)", underlying: error, deviceStatusCode: cause.deviceStatusCode)
        }
    }
}
