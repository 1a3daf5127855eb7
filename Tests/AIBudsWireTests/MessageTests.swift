import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

/// Every message of docs/protocol.md: round trips, hand-checked bytes, and the catalog.
@Suite struct MessageTests {
    /// Round-trips a request and its response through CBOR and a packet; returns the request type.
    @discardableResult
    private func check<R: SMPRequest & Equatable>(_ request: R, _ response: R.Response) throws -> ObjectIdentifier
    where R.Response: Equatable {
        let packet = try request.packet(sequence: 42, version: .v2)
        let received = try SMPPacket.decode(packet.encoded())
        #expect(received.header.group == R.group && received.header.command == R.command)
        #expect(received.header.operation == R.operation)
        let type = try #require(SMPMessageCatalog.requestType(for: received.header))
        #expect(ObjectIdentifier(type) == ObjectIdentifier(R.self))
        #expect(try R.decode(payload: received.payload) == request)
        // Decoding through the catalog's existential type gives the same request.
        let decoded = try type.decode(payload: received.payload)
        #expect(decoded as? R == request)
        let responsePayload = try CBOREncoder().encode(response)
        #expect(try R.decodeResponse(payload: responsePayload) == response)
        #expect(R.responseOperation == R.operation.response)
        return ObjectIdentifier(R.self)
    }

    @Test func everyMessageRoundTrips() throws {
        let empty = SMPEmptyResponse()
        var seen: Set<ObjectIdentifier> = []
        // OS
        seen.insert(try check(OSEchoRequest(d: "hello"), OSEchoResponse(r: "hello")))
        seen.insert(try check(OSDatetimeReadRequest(), OSDatetimeReadResponse(datetime: "2025-01-02T03:04:05.123456")))
        seen.insert(try check(OSDatetimeWriteRequest(datetime: "2025-01-02T03:04:05"), empty))
        seen.insert(try check(OSResetRequest(force: 1), empty))
        seen.insert(try check(OSParamsRequest(), OSParamsResponse(bufSize: 1024, bufCount: 4)))
        seen.insert(try check(OSInfoRequest(format: "a"), OSInfoResponse(output: "Zephyr emulator")))
        // Image
        let hash = Data(repeating: 0x5C, count: 32)
        let states = ImageStateResponse(images: [
            ImageSlotState(image: 0, slot: 0, version: "2.4.1", hash: hash, bootable: true, confirmed: true, active: true),
            ImageSlotState(image: 0, slot: 1, version: "2.5.0.7", hash: hash, bootable: true, pending: true, permanent: true),
        ])
        seen.insert(try check(ImageStateReadRequest(), states))
        seen.insert(try check(ImageStateWriteRequest(hash: hash, confirm: false), states))
        seen.insert(try check(ImageUploadRequest(image: 1, len: 5_000, off: 0, sha: hash, data: Data(repeating: 1, count: 40), upgrade: true),
                              ImageUploadResponse(off: 40)))
        seen.insert(try check(ImageUploadRequest(off: 40, data: Data(repeating: 2, count: 100)), ImageUploadResponse(off: 140, match: true)))
        seen.insert(try check(ImageEraseRequest(slot: 3), empty))
        seen.insert(try check(ImageSlotInfoRequest(), ImageSlotInfoResponse(images: [
            ImageSlotInfo(image: 0, slots: [ImageSlotSize(slot: 0, size: 1 << 21, uploadImageID: nil),
                                            ImageSlotSize(slot: 1, size: 1 << 21, uploadImageID: 0)], maxImageSize: 1 << 21),
        ])))
        // False flags are left out, as Zephyr does; the field names are Zephyr's.
        let encoded = try CBOREncoder().encodeValue(states.images[1])
        #expect(encoded["pending"] == .bool(true) && encoded["active"] == nil && encoded["confirmed"] == nil)
        let info = try CBOREncoder().encodeValue(ImageSlotSize(slot: 1, size: 9, uploadImageID: 0))
        #expect(info["upload_image_id"] == .unsigned(0))
        // File
        seen.insert(try check(FileDownloadRequest(off: 0, name: "/media/a.jpg"),
                              FileDownloadResponse(off: 0, data: Data([1, 2, 3]), len: 3)))
        seen.insert(try check(FileUploadRequest(off: 0, data: Data(repeating: 7, count: 300), name: "/media/b", len: 1000),
                              FileUploadResponse(off: 300)))
        seen.insert(try check(FileStatusRequest(name: "/media/a.jpg"), FileStatusResponse(len: 123_456_789_012)))
        seen.insert(try check(FileHashRequest(name: "/media/a.jpg", type: "sha256", off: 0, len: 10),
                              FileHashResponse(type: "sha256", off: 0, len: 10, output: .bytes(Data(repeating: 0xAB, count: 32)))))
        seen.insert(try check(FileSupportedHashesRequest(),
                              FileSupportedHashesResponse(types: ["sha256": FileHashTypeInfo(format: 1, size: 32),
                                                                  "crc32": FileHashTypeInfo(format: 0, size: 4)])))
        seen.insert(try check(FileCloseRequest(), empty))
        // Enumeration
        seen.insert(try check(EnumCountRequest(), EnumCountResponse(count: 7)))
        seen.insert(try check(EnumListRequest(), EnumListResponse(groups: [0, 8, 10, 64, 65, 66, 67])))
        seen.insert(try check(EnumSingleRequest(index: 6), EnumSingleResponse(group: 67, end: true)))
        seen.insert(try check(EnumDetailsRequest(groups: [0, 64]),
                              EnumDetailsResponse(groups: [EnumGroupDetails(group: 0, name: "os", handlers: 4)])))
        // Device
        seen.insert(try check(DeviceInfoRequest(), DeviceInfoResponse(
            name: "Glasses", product: 2, model: "G1", serial: "SN1", firmware: "1.0.0", mac: "02:00:00:00:00:01",
            capabilities: ["info", "hotspot"], mtu: 1024)))
        seen.insert(try check(DeviceBatteryRequest(), DeviceBatteryResponse(level: 87, charging: false)))
        seen.insert(try check(DeviceStorageRequest(), DeviceStorageResponse(usedMB: 100, freeMB: 3_000)))
        seen.insert(try check(DeviceMediaCountRequest(), DeviceMediaCountResponse(photos: 1, videos: 2, audios: 3)))
        seen.insert(try check(DeviceTimeReadRequest(), DeviceTimeReadResponse(time: 1_700_000_000)))
        seen.insert(try check(DeviceTimeWriteRequest(time: -5), empty))
        seen.insert(try check(DeviceLanguageReadRequest(), DeviceLanguageReadResponse(language: "en", supported: ["en", "zh"])))
        seen.insert(try check(DeviceLanguageWriteRequest(language: "zh"), empty))
        seen.insert(try check(DeviceWorkStateRequest(), DeviceWorkStateResponse(state: 1)))
        seen.insert(try check(DeviceEventsRequest(since: 10, waitMs: 30_000), DeviceEventsResponse(seq: 12, events: [
            DeviceEvent(seq: 11, kind: DeviceEventKind.battery, value: ["level": 50, "charging": true]),
            DeviceEvent(seq: 12, kind: DeviceEventKind.mediaChanged, value: ["generation": 9, "types": [1, 3]]),
        ])))
        seen.insert(try check(DeviceFactoryResetRequest(), empty))
        seen.insert(try check(DeviceFormatStorageRequest(), DeviceFormatStorageResponse(deleted: 5)))
        seen.insert(try check(HotspotCancelTransferRequest(), empty))
        seen.insert(try check(DevicePowerOffRequest(), empty))
        seen.insert(try check(DeviceFindRequest(on: true), empty))
        seen.insert(try check(DeviceSettingReadRequest(name: DeviceSettingName.anc),
                              DeviceSettingResponse(name: DeviceSettingName.anc, value: ["mode": 2, "gain": 4, "fade": 300])))
        seen.insert(try check(DeviceSettingWriteRequest(name: DeviceSettingName.volume, value: ["level": 3]),
                              DeviceSettingResponse(name: DeviceSettingName.volume, value: ["level": 3, "max": 16])))
        seen.insert(try check(DeviceActionRequest(name: DeviceActionName.music, args: ["command": 2]),
                              DeviceActionResponse(setting: DeviceSettingName.media, value: ["state": 1])))
        // Media
        seen.insert(try check(MediaListRequest(type: 3, off: 64, limit: 256), MediaListResponse(generation: 5, total: 65, files: [
            MediaFileEntry(id: "v1", name: "VID_0001.mp4", type: 3, size: 1 << 31, sixaxis: true),
        ])))
        seen.insert(try check(MediaDeleteRequest(name: "IMG_1.jpg", generation: 5), MediaDeleteResponse(generation: 6)))
        seen.insert(try check(MediaDeleteAllRequest(type: 1), MediaDeleteAllResponse(generation: 7, deleted: 12)))
        seen.insert(try check(MediaChangedRequest(since: 5, waitMs: 1_000), MediaChangedResponse(generation: 7, types: [1, 2, 3])))
        // Hotspot
        seen.insert(try check(HotspotConfigureRequest(mode: 1, channel: 6, ssid: "AIBuds-1", password: "secret"), empty))
        seen.insert(try check(HotspotEnterTransferRequest(), empty))
        seen.insert(try check(HotspotLeaveTransferRequest(), empty))
        seen.insert(try check(HotspotStateRequest(), HotspotStateResponse(state: 1, ssid: "AIBuds-1",
                                                                          baseURL: "http://127.0.0.1:8080", token: "t0k")))
        // Capture
        seen.insert(try check(CaptureAudioStartRequest(), empty))
        seen.insert(try check(CaptureAudioStopRequest(), CaptureAudioStopResponse(name: "AUD_0001.m4a")))
        seen.insert(try check(CapturePhotoRequest(mode: 0), CapturePhotoResponse(name: "IMG_0001.jpg")))
        seen.insert(try check(CaptureVideoStartRequest(), empty))
        seen.insert(try check(CaptureVideoStopRequest(), CaptureVideoStopResponse(name: "VID_0001.mp4")))
        seen.insert(try check(CaptureMaxAudioReadRequest(), CaptureMaxAudioReadResponse(seconds: 600)))
        seen.insert(try check(CaptureMaxAudioWriteRequest(seconds: 300), empty))
        seen.insert(try check(CaptureMaxVideoReadRequest(), CaptureMaxVideoReadResponse(seconds: 60)))
        seen.insert(try check(CaptureMaxVideoWriteRequest(seconds: 30), empty))
        seen.insert(try check(CaptureLensProfileRequest(off: 512), CaptureLensProfileResponse(off: 512, len: 700, data: Data("{}".utf8))))
        // Audio
        let started = AudioStreamStartResponse(stream: 3, format: .speech)
        seen.insert(try check(AudioMicStartRequest(), started))
        seen.insert(try check(AudioMicReadRequest(stream: 3, from: 40, waitMs: 100),
                              AudioMicReadResponse(first: 40, frames: [Data([0x78, 1]), Data([0x78, 2])], ended: false)))
        seen.insert(try check(AudioMicStopRequest(stream: 3), empty))
        seen.insert(try check(AudioSpeakerStartRequest(), started))
        seen.insert(try check(AudioSpeakerWriteRequest(stream: 4, first: 0, frames: [Data([0x78, 9])]), empty))
        seen.insert(try check(AudioSpeakerStopRequest(stream: 4, frames: 1),
                              AudioSpeakerStopResponse(decoded: 1, recovered: 0, concealed: 0)))
        // Live
        let live = LiveStateResponse(streaming: true, format: "rtsp", url: "rtsp://127.0.0.1:8554/live", width: 640,
                                     height: 360, fps: 30, bitrateKbps: 2_000, sizes: ["640x360", "1280x720"], maxFps: 30,
                                     bitrateMin: 250, bitrateMax: 8_000)
        seen.insert(try check(LiveStartRequest(format: "rtsp", width: 640, height: 360, fps: 30, bitrateKbps: 2_000), live))
        seen.insert(try check(LiveStopRequest(), empty))
        seen.insert(try check(LiveStateRequest(), live))

        #expect(seen == Set(SMPMessageCatalog.all.map { ObjectIdentifier($0) }))
        #expect(SMPMessageCatalog.all.count == 66)
    }

    @Test func encodedBytesMatchHandCheckedCBOR() throws {
        // {"off": 0, "name": "/media/a"}: keys sorted by encoded bytes ("off" is shorter, so first).
        #expect(try FileDownloadRequest(off: 0, name: "/media/a").payload().hexString
            == "a2" + "636f6666" + "00" + "646e616d65" + "682f6d656469612f61")
        // {}
        #expect(try DeviceInfoRequest().payload().hexString == "a0")
        // Optional nil fields are omitted: {"name": "x"}
        #expect(try MediaDeleteRequest(name: "x").payload().hexString == "a1" + "646e616d65" + "6178")
        // {"since": 3, "wait_ms": 1000}
        #expect(try MediaChangedRequest(since: 3, waitMs: 1_000).payload().hexString
            == "a2" + "6573696e6365" + "03" + "67776169745f6d73" + "1903e8")
        // {"on": true}
        #expect(try DeviceFindRequest(on: true).payload().hexString == "a1" + "626f6e" + "f5")
        // {"time": -1}
        #expect(try DeviceTimeWriteRequest(time: -1).payload().hexString == "a1" + "6474696d65" + "20")
        // A whole packet: v2 read, group 8, sequence 1, command 0.
        #expect(try FileStatusRequest(name: "/media/a").packet(sequence: 1).encoded().hexString
            == "0800000f000801" + "01" + "a1" + "646e616d65" + "682f6d656469612f61")
    }

    @Test func snakeCaseFieldsUseTheWireNames() throws {
        let storage = try CBOR.decode(try CBOREncoder().encode(DeviceStorageResponse(usedMB: 1, freeMB: 2)))
        #expect(storage == ["used_mb": 1, "free_mb": 2])
        let state = try CBOR.decode(try CBOREncoder().encode(HotspotStateResponse(state: 0)))
        #expect(state == ["state": 0])
        let params = try CBORDecoder().decode(OSParamsResponse.self, from: ["buf_size": 976, "buf_count": 2] as CBOR)
        #expect(params == OSParamsResponse(bufSize: 976, bufCount: 2))
    }

    @Test func fileHashOutputDecodesBytesOrUInt() throws {
        let crc = try CBORDecoder().decode(FileHashResponse.self, from: ["type": "crc32", "off": 0, "len": 9, "output": 0xCBF4_3926] as CBOR)
        #expect(crc.output == .uint(0xCBF4_3926))
        #expect(crc.output.uint64 == 0xCBF4_3926)
        let sha = try CBORDecoder().decode(FileHashResponse.self, from: ["type": "sha256", "off": 0, "len": 0, "output": .bytes(Data([1, 2]))] as CBOR)
        #expect(sha.output.data == Data([1, 2]))
        #expect(throws: DecodingError.self) {
            try CBORDecoder().decode(FileHashResponse.self, from: ["type": "x", "off": 0, "len": 0, "output": "text"] as CBOR)
        }
    }

    @Test func zephyrDefaultsDecode() throws {
        // Enumeration single without an index asks for index 0; a hash response may omit off = 0.
        #expect(try EnumSingleRequest.decode(payload: hex("a0")) == EnumSingleRequest(index: 0))
        #expect(try EnumSingleRequest(index: 0).payload().hexString == "a165696e64657800")
        let hash = try FileHashRequest.decodeResponse(payload: (["type": "crc32", "len": 9, "output": 1] as CBOR).encoded())
        #expect(hash == FileHashResponse(type: "crc32", off: 0, len: 9, output: .uint(1)))
        #expect(throws: DecodingError.self) {
            try FileHashRequest.decodeResponse(payload: (["type": "crc32", "off": 0, "output": 1] as CBOR).encoded())
        }
    }

    @Test func requestsRejectBadPayloads() throws {
        #expect(throws: DecodingError.self) { try FileDownloadRequest.decode(payload: hex("a0")) }         // missing fields
        #expect(throws: DecodingError.self) { try DeviceInfoRequest.decode(payload: hex("80")) }           // not a map
        #expect(throws: DecodingError.self) { try DeviceInfoRequest.decode(payload: hex("a0a0")) }         // trailing bytes
        _ = try DeviceInfoRequest.decode(payload: [UInt8]())                                                // empty reads as {}
        #expect(throws: DecodingError.self) { try OSEchoRequest.decode(payload: [UInt8]()) }               // {} lacks d
        #expect(throws: DecodingError.self) { try FileDownloadRequest.decode(payload: hex("a2636f666620646e616d656178")) } // off: -1
        _ = try DeviceInfoRequest.decode(payload: hex("a1617801"))                                          // extra keys ignored
    }

    @Test func catalogFindsRequestsAndNothingElse() {
        #expect(SMPMessageCatalog.requestType(group: 0, command: 4, operation: .read).map(ObjectIdentifier.init) == ObjectIdentifier(OSDatetimeReadRequest.self))
        #expect(SMPMessageCatalog.requestType(group: 0, command: 4, operation: .write).map(ObjectIdentifier.init) == ObjectIdentifier(OSDatetimeWriteRequest.self))
        #expect(SMPMessageCatalog.requestType(group: 8, command: 0, operation: .write).map(ObjectIdentifier.init) == ObjectIdentifier(FileUploadRequest.self))
        #expect(SMPMessageCatalog.requestType(group: 67, command: 6, operation: .write).map(ObjectIdentifier.init) == ObjectIdentifier(CaptureMaxVideoWriteRequest.self))
        #expect(SMPMessageCatalog.requestType(group: 0, command: 0, operation: .read) == nil)        // echo is a write
        #expect(SMPMessageCatalog.requestType(group: 0, command: 0, operation: .writeResponse) == nil)
        #expect(SMPMessageCatalog.requestType(group: 1, command: 0, operation: .read).map(ObjectIdentifier.init) == ObjectIdentifier(ImageStateReadRequest.self))
        #expect(SMPMessageCatalog.requestType(group: 1, command: 2, operation: .write) == nil)       // image `file`: not offered
        #expect(SMPMessageCatalog.requestType(group: 64, command: 11, operation: .write).map(ObjectIdentifier.init) == ObjectIdentifier(DeviceSettingWriteRequest.self))
        #expect(SMPMessageCatalog.requestType(group: 64, command: 12, operation: .read) == nil)     // action is a write
        #expect(SMPMessageCatalog.requestType(group: 64, command: 13, operation: .write).map(ObjectIdentifier.init) == ObjectIdentifier(DeviceFormatStorageRequest.self))
        #expect(SMPMessageCatalog.requestType(group: 64, command: 14, operation: .write) == nil)
    }
}
