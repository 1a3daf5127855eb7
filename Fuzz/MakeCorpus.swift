// Writes the seed corpora of the fuzz targets: real packets and payloads of every message of
// docs/protocol.md, error responses, and RFC 8949 examples. Run by `scripts/fuzz.sh --make-corpus`.
@testable import AIBudsCBOR
@testable import AIBudsWire
import Foundation

/// A request and a response payload of every catalog entry, as the wire carries them.
let samples: [(any SMPRequest.Type, request: CBOR, response: CBOR)] = [
    (OSEchoRequest.self, ["d": "hello"], ["r": "hello"]),
    (OSDatetimeReadRequest.self, [:], ["datetime": "2025-01-02T03:04:05.123456"]),
    (OSDatetimeWriteRequest.self, ["datetime": "2025-01-02T03:04:05"], [:]),
    (OSResetRequest.self, ["force": 1], [:]),
    (OSParamsRequest.self, [:], ["buf_size": 1024, "buf_count": 4]),
    (OSInfoRequest.self, ["format": "a"], ["output": "Zephyr aibuds 1.0"]),
    (FileDownloadRequest.self, ["off": 0, "name": "/media/IMG_0001.jpg"], ["off": 0, "data": .bytes(Data([0xFF, 0xD8, 0xFF, 0xE0])), "len": 4]),
    (FileUploadRequest.self, ["off": 0, "data": .bytes(Data("abc".utf8)), "name": "/media/a.txt", "len": 3], ["off": 3]),
    (FileStatusRequest.self, ["name": "/media/a.txt"], ["len": 3]),
    (FileHashRequest.self, ["name": "/media/a.txt", "type": "sha256", "off": 0, "len": 3],
     ["type": "sha256", "off": 0, "len": 3, "output": .bytes(Data(repeating: 0xAB, count: 32))]),
    (FileSupportedHashesRequest.self, [:], ["types": ["sha256": ["format": 1, "size": 32], "crc32": ["format": 0, "size": 4]]]),
    (FileCloseRequest.self, [:], [:]),
    (EnumCountRequest.self, [:], ["count": 7]),
    (EnumListRequest.self, [:], ["groups": [0, 8, 10, 64, 65, 66, 67]]),
    (EnumSingleRequest.self, ["index": 6], ["group": 67, "end": true]),
    (EnumDetailsRequest.self, ["groups": [0, 64]], ["groups": [["group": 0, "name": "os", "handlers": 4]]]),
    (DeviceInfoRequest.self, [:], ["name": "Glasses", "product": 2, "model": "G1", "serial": "SN1", "firmware": "1.0.0",
                                   "mac": "02:00:00:00:00:01", "capabilities": ["info", "hotspot", "mediaFile"], "mtu": 1024]),
    (DeviceBatteryRequest.self, [:], ["level": 87, "charging": false]),
    (DeviceStorageRequest.self, [:], ["used_mb": 100, "free_mb": 3000]),
    (DeviceMediaCountRequest.self, [:], ["photos": 1, "videos": 2, "audios": 3]),
    (DeviceTimeReadRequest.self, [:], ["time": 1_700_000_000]),
    (DeviceTimeWriteRequest.self, ["time": 1_700_000_000], [:]),
    (DeviceLanguageReadRequest.self, [:], ["language": "en", "supported": ["en", "zh"]]),
    (DeviceLanguageWriteRequest.self, ["language": "zh"], [:]),
    (DeviceWorkStateRequest.self, [:], ["state": 1]),
    (DeviceEventsRequest.self, ["since": 10, "wait_ms": 30000],
     ["seq": 12, "events": [["seq": 11, "kind": "battery", "value": ["level": 50, "charging": true]],
                            ["seq": 12, "kind": "mediaChanged", "value": ["generation": 9, "types": [1, 3]]]]]),
    (DeviceFactoryResetRequest.self, [:], [:]),
    (DeviceFormatStorageRequest.self, [:], ["deleted": 5]),
    (DevicePowerOffRequest.self, [:], [:]),
    (DeviceFindRequest.self, ["on": true], [:]),
    (MediaListRequest.self, ["type": 3, "off": 0, "limit": 64],
     ["generation": 5, "total": 1, "files": [["id": "v1", "name": "VID_0001.mp4", "type": 3, "size": 1_048_576, "sixaxis": true]]]),
    (MediaDeleteRequest.self, ["name": "IMG_0001.jpg", "generation": 5], ["generation": 6]),
    (MediaDeleteAllRequest.self, ["type": 1], ["generation": 7, "deleted": 12]),
    (MediaChangedRequest.self, ["since": 5, "wait_ms": 1000], ["generation": 7, "types": [1, 2, 3]]),
    (HotspotConfigureRequest.self, ["mode": 1, "channel": 6, "ssid": "AIBuds-1", "password": "secret"], [:]),
    (HotspotEnterTransferRequest.self, [:], [:]),
    (HotspotLeaveTransferRequest.self, [:], [:]),
    (HotspotStateRequest.self, [:], ["state": 1, "ssid": "AIBuds-1", "base_url": "http://127.0.0.1:8080", "token": "t0k"]),
    (HotspotCancelTransferRequest.self, [:], [:]),
    (CaptureAudioStartRequest.self, [:], [:]),
    (CaptureAudioStopRequest.self, [:], ["name": "AUD_0001.m4a"]),
    (CapturePhotoRequest.self, ["mode": 0], ["name": "IMG_0002.jpg"]),
    (CaptureVideoStartRequest.self, [:], [:]),
    (CaptureVideoStopRequest.self, [:], ["name": "VID_0002.mp4"]),
    (CaptureMaxAudioReadRequest.self, [:], ["seconds": 600]),
    (CaptureMaxAudioWriteRequest.self, ["seconds": 300], [:]),
    (CaptureMaxVideoReadRequest.self, [:], ["seconds": 60]),
    (CaptureMaxVideoWriteRequest.self, ["seconds": 30], [:]),
    (CaptureLensProfileRequest.self, ["off": 0], ["off": 0, "len": 2, "data": .bytes(Data("{}".utf8))]),
    (ImageStateReadRequest.self, [:],
     ["images": [["image": 0, "slot": 0, "version": "1.2.0", "hash": .bytes(Data(repeating: 0x11, count: 32)),
                  "bootable": true, "confirmed": true, "active": true],
                 ["image": 0, "slot": 1, "version": "1.3.0", "hash": .bytes(Data(repeating: 0x22, count: 32)), "pending": true]],
      "splitStatus": 0]),
    (ImageStateWriteRequest.self, ["hash": .bytes(Data(repeating: 0x22, count: 32)), "confirm": false],
     ["images": [["slot": 0, "version": "1.2.0"]]]),
    (ImageUploadRequest.self, ["image": 0, "len": 4096, "off": 0, "sha": .bytes(Data(repeating: 0x33, count: 32)),
                               "data": .bytes(Data([0x3D, 0xB8, 0xF3, 0x96])), "upgrade": false],
     ["off": 4, "match": false]),
    (ImageEraseRequest.self, ["slot": 1], [:]),
    (ImageSlotInfoRequest.self, [:], ["images": [["image": 0, "slots": [["slot": 0, "size": 262_144], ["slot": 1, "size": 262_144]],
                                                  "max_image_size": 262_144]]]),
    (DeviceSettingReadRequest.self, ["name": "anc"], ["name": "anc", "value": 1]),
    (DeviceSettingWriteRequest.self, ["name": "volume", "value": 7], ["name": "volume", "value": 7]),
    (DeviceActionRequest.self, ["name": "teleprompter.open", "args": ["text": "Hello"]], ["setting": "teleprompter", "value": true]),
    (AudioMicStartRequest.self, [:], ["stream": 1, "format": ["codec": "opus", "rate": 16000, "channels": 1, "frame_ms": 20]]),
    (AudioMicReadRequest.self, ["stream": 1, "from": 0, "wait_ms": 200],
     ["first": 0, "frames": [.bytes(Data([0x08, 0x01])), .bytes(Data([0x08, 0x02]))], "ended": false]),
    (AudioMicStopRequest.self, ["stream": 1], [:]),
    (AudioSpeakerStartRequest.self, [:], ["stream": 2, "format": ["codec": "opus", "rate": 16000, "channels": 1, "frame_ms": 20]]),
    (AudioSpeakerWriteRequest.self, ["stream": 2, "first": 0, "frames": [.bytes(Data([0x08, 0x01]))]], [:]),
    (AudioSpeakerStopRequest.self, ["stream": 2, "frames": 1], ["decoded": 1, "recovered": 0, "concealed": 0]),
    (LiveStartRequest.self, ["format": "rtsp", "width": 1280, "height": 720, "fps": 30, "bitrate_kbps": 2000],
     ["streaming": true, "format": "rtsp", "url": "rtsp://127.0.0.1:8554/live", "width": 1280, "height": 720, "fps": 30,
      "bitrate_kbps": 2000, "sizes": ["1280x720", "1920x1080"], "max_fps": 30, "bitrate_min": 500, "bitrate_max": 8000]),
    (LiveStopRequest.self, [:], [:]),
    (LiveStateRequest.self, [:], ["streaming": false, "sizes": ["1280x720"], "max_fps": 30, "bitrate_min": 500, "bitrate_max": 8000]),
]

/// RFC 8949 Appendix A examples and a few hostile shapes, as hex.
let cborExtras = [
    "1bffffffffffffffff", "3bffffffffffffffff", "c249010000000000000000", "f93c00", "fa7f7fffff", "fb3ff199999999999a",
    "f97e00", "f8ff", "d82076687474703a2f2f7777772e6578616d706c652e636f6d", "64f0908591",
    "5f42010243030405ff", "7f657374726561646d696e67ff", "9f018202039f0405ffff", "bf6346756ef563416d7421ff",
    "a56161614161626142616361436164614461656145", "9affffffff", "818181818181818100",
]

@main
struct MakeCorpus {
    static func main() throws {
        // Checked before the old corpus is removed: a message without a sample leaves it as it was.
        let sampled = Set(samples.map { ObjectIdentifier($0.0) })
        let missing = SMPMessageCatalog.all.filter { !sampled.contains(ObjectIdentifier($0)) }
        guard missing.isEmpty else {
            FileHandle.standardError.write(Data("make-corpus: no sample for \(missing.map { "\($0)" }.joined(separator: ", "))\n".utf8))
            exit(1)
        }
        let root = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Fuzz/corpus")
        let smp = root.appendingPathComponent("smp"), cbor = root.appendingPathComponent("cbor")
        // The generated seeds are written anew; the regression inputs kept beside them stay.
        for folder in [smp, cbor] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix("regression-") {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
        func write(_ bytes: some Sequence<UInt8>, _ folder: URL, _ name: String) throws {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        var sequence: UInt8 = 0
        for (type, request, response) in samples {
            let name = "\(type.group)-\(type.command)-\(type.operation)"
            let packets = try makePackets(type, request: request, response: response, sequence: &sequence)
            for (suffix, packet) in packets {
                try write(packet.encoded(), smp, "\(name)-\(suffix).bin")
            }
            try write(packets[0].1.payload, cbor, "\(name)-request.bin")
            try write(packets[2].1.payload, cbor, "\(name)-response.bin")
        }
        for (index, text) in cborExtras.enumerated() {
            let digits = Array(text)
            let bytes = stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
            try write(bytes, cbor, "extra-\(index).bin")
        }
    }

    /// A v2 and a v1 request, a response, and v2/v1 error responses, each checked to decode.
    static func makePackets<R: SMPRequest>(_ type: R.Type, request: CBOR, response: CBOR,
                                           sequence: inout UInt8) throws -> [(String, SMPPacket)] {
        let typedRequest = try CBORDecoder().decode(R.self, from: request)
        let typedResponse = try CBORDecoder().decode(R.Response.self, from: response)
        sequence &+= 1
        let v2 = try typedRequest.packet(sequence: sequence, version: .v2)
        let v1 = try typedRequest.packet(sequence: sequence, version: .v1)
        func answer(_ header: SMPHeader, _ payload: Data) -> SMPPacket {
            SMPPacket(header: header.response(length: UInt16(payload.count)), payload: payload)
        }
        let v2Error = SMPDeviceError(group: R.group, rc: R.group >= 64 ? ProjectReturnCode.badState.rawValue : MGMTError.noEntry.rawValue, version: .v2)
        let v1Error = SMPDeviceError(group: nil, rc: MGMTError.notSupported.rawValue, version: .v1)
        return [
            ("request-v2", v2), ("request-v1", v1),
            ("response", answer(v2.header, try CBOREncoder().encode(typedResponse))),
            ("error-v2", answer(v2.header, Data(v2Error.payload().encoded()))),
            ("error-v1", answer(v1.header, Data(v1Error.payload().encoded()))),
        ]
    }
}
