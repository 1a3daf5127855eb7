import AIBuds
import AIBudsFoundation
import AIBudsSMPClient
import AIBudsWire

// The control channel of the media import engine over SMP (Media group 65 and File group 8 of
// docs/protocol.md), with the client's requests of SMPClient+Media.swift. Glasses adopt it, and so
// `DeviceMediaFileImportAPI`.

extension SMPDevice {
    /// The SMP client of the current connection; `nil` unless the device is ready.
    public var smpClient: SMPClient? {
        try? readySession(SMPDeviceSession.self).client
    }

    /// The serial number when known, else the SDK's identifier of the device.
    public var mediaImportDeviceID: String { deviceSerialNum ?? uuid.uuidString }

    /// Lists every media file (of `type`, or all), across pages at one generation.
    public func listMediaFiles(type: MediaFileType?) async throws -> DeviceMediaListing {
        try await run(.mediaImport) { session in
            DeviceMediaListing(try await SMPDeviceSession.mappingErrors { () async throws(SMPError) -> SMPMediaListing in
                try await session.client.mediaListing(type: type?.rawValue)
            })
        }
    }

    /// Deletes one file by name; with `generation`, only if the list is still at it.
    public func deleteMediaFile(named name: String, generation: UInt64?) async throws -> UInt64 {
        try await run(.mediaImport) { try await $0.request(MediaDeleteRequest(name: name, generation: generation)) }
            .generation
    }

    /// Deletes every media file (of `type`, or all).
    public func deleteAllMediaFiles(type: MediaFileType?) async throws -> (generation: UInt64, deleted: Int) {
        let response = try await run(.mediaImport) { try await $0.request(MediaDeleteAllRequest(type: type?.rawValue)) }
        return (response.generation, Int(clamping: response.deleted))
    }

    /// The device's SHA-256 of one file; `nil` when the device cannot hash.
    public func mediaFileSHA256(named name: String) async throws -> [UInt8]? {
        try await run(.mediaImport) { session in
            try await SMPDeviceSession.mappingErrors { () async throws(SMPError) -> [UInt8]? in
                try await session.client.mediaSHA256(named: name, timeout: SMPDeviceSession.commandTimeout * 4)
            }
        }
    }
}

extension SMPGlassesDevice: MediaImportControlChannel, DeviceMediaFileImportAPI {}
