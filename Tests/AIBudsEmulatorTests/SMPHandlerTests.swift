@testable import AIBudsEmulator
import AIBudsDigest
import AIBudsFoundation
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

@Suite struct SMPHandlerTests {
    @Test func standardGroupsAnswerAsZephyrDoes() throws {
        let harness = try DeviceHarness()
        #expect(try harness.call(OSEchoRequest(d: "hello")).r == "hello")
        #expect(try harness.call(OSParamsRequest()) == OSParamsResponse(bufSize: 1024, bufCount: 4))
        #expect(try harness.call(OSInfoRequest()).output == "AIBudsOS")
        #expect(try harness.call(OSInfoRequest(format: "sn")).output == "AIBudsOS Test glasses")
        #expect(try harness.failure(OSInfoRequest(format: "sz")) == SMPDeviceError(group: 0, rc: 2, version: .v2))
        #expect(try harness.call(OSDatetimeReadRequest()).datetime.hasPrefix("2026-02-25T06:13:20"))
        _ = try harness.call(OSDatetimeWriteRequest(datetime: "2030-01-02T03:04:05"))
        #expect(try harness.call(DeviceTimeReadRequest()).time == 1_893_553_445)
        #expect(try harness.failure(OSDatetimeWriteRequest(datetime: "yesterday")).rc == 2)

        let groups = try harness.call(EnumListRequest()).groups
        #expect(groups == [0, 1, 8, 10, 64, 65, 66, 67, 68])
        #expect(try harness.call(EnumCountRequest()).count == 9)
        #expect(try harness.call(EnumSingleRequest(index: 0)) == EnumSingleResponse(group: 0, end: nil))
        #expect(try harness.call(EnumSingleRequest(index: 8)) == EnumSingleResponse(group: 68, end: true))
        #expect(try harness.failure(EnumSingleRequest(index: 9)) == SMPDeviceError(group: 10, rc: 4, version: .v2))
        #expect(try harness.failure(EnumSingleRequest(index: 9), version: .v1) == SMPDeviceError(group: nil, rc: 5, version: .v1))
        let details = try harness.call(EnumDetailsRequest(groups: [8, 66, 99])).groups
        #expect(details == [EnumGroupDetails(group: 8, name: "fs mgmt", handlers: 5), EnumGroupDetails(group: 66, name: "hotspot", handlers: 5)])

        let hashes = try harness.call(FileSupportedHashesRequest()).types
        #expect(hashes == ["sha256": FileHashTypeInfo(format: 1, size: 32), "crc32": FileHashTypeInfo(format: 0, size: 4)])
        _ = try harness.call(FileCloseRequest())
    }

    @Test func earbudsListNoHotspotGroupAndAnswerItWithNotSupported() throws {
        let harness = try DeviceHarness(profile: .earbuds)
        #expect(try harness.call(EnumListRequest()).groups == [0, 1, 8, 10, 64, 65, 67, 68])
        #expect(try harness.failure(HotspotStateRequest()) == SMPDeviceError(group: 66, rc: 4, version: .v2))
        #expect(try harness.failure(HotspotEnterTransferRequest(), version: .v1) == SMPDeviceError(group: nil, rc: 8, version: .v1))
        #expect(try harness.failure(CapturePhotoRequest()) == SMPDeviceError(group: 67, rc: 4, version: .v2))
        let info = try harness.call(DeviceInfoRequest())
        #expect(info.product == DeviceProduct.earbuds.rawValue && info.mtu == 1024 && !info.capabilities.contains("hotspot"))
    }

    @Test func unknownCommandsGetENOTSUPInEitherVersion() throws {
        let harness = try DeviceHarness()
        for version in [SMPVersion.v1, .v2] {
            for (group, command, operation) in [(UInt16(1), UInt8(2), SMPOperation.write), (63, 0, .read), (8, 9, .read),
                                                 (0, 4, .read), (64, 0, .write), (300, 1, .write)] where !(group == 0 && command == 4) {
                let packet = SMPPacket(operation: operation, version: version, group: group, sequence: harness.nextSequence(),
                                       command: command, cbor: .map([:]))
                let response = try #require(harness.raw(packet.encoded()).first)
                let decoded = try SMPPacket.decode(response)
                #expect(decoded.header.group == group && decoded.header.command == command)
                #expect(decoded.header.operation == operation.response && decoded.header.version == version)
                #expect(try decoded.payloadMap() == ["rc": 8])
            }
        }
    }

    @Test func filesDownloadByExactNameInChunksThatFitTheMTU() throws {
        let seeds = hostileNames.enumerated().map { index, name in
            MediaSeed.generated(name, type: .audio, size: UInt64(index == 0 ? 50_000 : 1 + index * 1000), seed: UInt64(index))
        }
        for mtu in [976, 1024] {
            let harness = try DeviceHarness(seeds: seeds, mtu: mtu)
            for (index, name) in hostileNames.enumerated() {
                let expected = GeneratedContent.bytes(seed: UInt64(index), offset: 0, count: index == 0 ? 50_000 : 1 + index * 1000)
                let data = try harness.download("/media/" + name, version: index.isMultiple(of: 2) ? .v2 : .v1)
                #expect(SHA256.hash(data) == SHA256.hash(expected), "\(MediaFileName(name))")
                #expect(try harness.call(FileStatusRequest(name: "/media/" + name)).len == UInt64(expected.count))
                let hash = try harness.call(FileHashRequest(name: "/media/" + name, type: "sha256"))
                #expect(hash.output == .bytes(Data(SHA256.hash(expected))) && hash.len == UInt64(expected.count))
                #expect(try harness.call(FileHashRequest(name: "/media/" + name)).output == .uint(UInt64(CRC32.checksum(expected))))
            }
            for miss in ["/media/x.jpg", "/media/etc/x.jpg", "/etc/x.jpg", "/media//etc/x.jpg/", "/media/CASE.jpg",
                         "/media/cafe.wav", "media/Case.jpg", "/media/", "", "/media/nul"] {
                #expect(try harness.failure(FileDownloadRequest(off: 0, name: miss)) == SMPDeviceError(group: 8, rc: 3, version: .v2))
                #expect(try harness.failure(FileStatusRequest(name: miss), version: .v1) == SMPDeviceError(group: nil, rc: 5, version: .v1))
            }
        }
    }

    @Test func downloadEdgesAndHashArguments() throws {
        let harness = try DeviceHarness(seeds: [.generated("a.wav", type: .audio, size: 3000, seed: 1)])
        let end = try harness.call(FileDownloadRequest(off: 3000, name: "/media/a.wav"))
        #expect(end.data.isEmpty && end.off == 3000 && end.len == nil)
        #expect(try harness.failure(FileDownloadRequest(off: 3001, name: "/media/a.wav")) == SMPDeviceError(group: 8, rc: 12, version: .v2))
        #expect(try harness.failure(FileDownloadRequest(off: 3001, name: "/media/a.wav"), version: .v1).rc == 3)
        let bytes = GeneratedContent.bytes(seed: 1, offset: 0, count: 3000)
        let part = try harness.call(FileHashRequest(name: "/media/a.wav", type: "crc32", off: 100, len: 50))
        #expect(part == FileHashResponse(type: "crc32", off: 100, len: 50, output: .uint(UInt64(CRC32.checksum(bytes[100..<150])))))
        #expect(try harness.failure(FileHashRequest(name: "/media/a.wav", type: "md5")) == SMPDeviceError(group: 8, rc: 13, version: .v2))
        #expect(try harness.failure(FileHashRequest(name: "/media/a.wav", off: 3001)).rc == 12)
        #expect(try harness.failure(FileHashRequest(name: "/media/a.wav", len: 0)) == SMPDeviceError(group: nil, rc: 3, version: .v2))
        // A request missing a required field is EINVAL, as Zephyr answers it.
        let packet = SMPPacket(operation: .read, group: 8, sequence: harness.nextSequence(), command: 0, cbor: ["off": 0])
        #expect(try SMPPacket.decode(try #require(harness.raw(packet.encoded()).first)).payloadMap() == ["rc": 3])
    }

    @Test func uploadsAppearWhenCompleteAndRaiseTheGeneration() throws {
        let harness = try DeviceHarness(profile: .watch)
        let before = try harness.call(MediaListRequest()).generation
        let content = Data((0..<2500).map { UInt8(truncatingIfNeeded: $0 * 31) })
        #expect(try harness.call(FileUploadRequest(off: 0, data: content.prefix(1000), name: "/media/up.wav", len: 2500)).off == 1000)
        #expect(try harness.call(MediaListRequest()).files.contains { $0.name == "up.wav" } == false)
        #expect(try harness.call(FileUploadRequest(off: 2000, data: content.suffix(500), name: "/media/up.wav")).off == 1000)
        #expect(try harness.call(FileUploadRequest(off: 1000, data: content.dropFirst(1000).prefix(1000), name: "/media/up.wav")).off == 2000)
        #expect(try harness.call(FileUploadRequest(off: 2000, data: content.suffix(500), name: "/media/up.wav")).off == 2500)
        let list = try harness.call(MediaListRequest())
        #expect(list.generation == before + 1)
        #expect(list.files.contains(MediaFileEntry(id: list.files.first { $0.name == "up.wav" }?.id ?? "", name: "up.wav", type: 2, size: 2500, sixaxis: false)))
        #expect(try harness.download("/media/up.wav") == content)
        #expect(try harness.failure(FileUploadRequest(off: 0, data: Data(), name: "/media/notes.txt", len: 1)) == SMPDeviceError(group: 8, rc: 2, version: .v2))
        #expect(try harness.failure(FileUploadRequest(off: 0, data: Data(), name: "/tmp/x.wav", len: 1)) == SMPDeviceError(group: 8, rc: 14, version: .v2))
        #expect(try harness.failure(FileUploadRequest(off: 0, data: Data(), name: "/media/x.wav")).rc == 3)
    }

    @Test func malformedDatagramsAreDroppedAndServingGoesOn() throws {
        let harness = try DeviceHarness()
        var random = SeededRandom(seed: 2024)
        var garbage: [Data] = [Data(), Data([0]), Data([2, 0, 0, 0, 0, 0, 1]), Data(repeating: 0xFF, count: 8)]
        let echo = try harness.datagram(OSEchoRequest(d: "x"), sequence: 200)
        garbage.append(echo.dropLast())                                            // length mismatch
        garbage.append(echo + Data([0]))                                           // trailing byte
        var response = echo
        response[0] = (response[0] & ~0x07) | 3                                   // a response op
        garbage.append(response)
        var badVersion = echo
        badVersion[0] |= 0x10                                                      // version 2 and up
        garbage.append(badVersion)
        for payload in [Data([0x01]), Data([0x80]), Data([0x61, 0x41]), Data([0xA1, 0x61]), Data([0xBF]),  // not one map
                        Data([0xA1, 0x61, 0x64, 0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),  // huge byte string
                        Data([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),                    // huge array
                        Data([0xA1, 0x61, 0x64, 0x61, 0x78, 0x00]),                                      // map then a byte
                        Data(repeating: 0x81, count: 500) + Data([0])] {                                  // deep nesting
            garbage.append(SMPPacket(operation: .write, group: 0, sequence: 1, command: 0, payload: payload).encoded())
        }
        var header = echo.prefix(8)
        header[2] = 0xFF
        header[3] = 0xFF                                                           // declares 65,535 payload bytes
        garbage.append(header + Data(repeating: 0xA0, count: 3))
        for _ in 0..<2000 {
            let count = Int(random.next() % 80)
            garbage.append(Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        }
        for datagram in garbage {
            let responses = harness.raw(datagram)
            for response in responses {
                // Random bytes may form a valid request; it must then get a well-formed answer.
                let packet = try SMPPacket.decode(response)
                #expect(packet.header.operation.isResponse)
            }
        }
        #expect(try harness.call(OSEchoRequest(d: "still here")).r == "still here")
        #expect(try harness.download("/media/AUD_20260301_104000.m4a").count == 480_000)
    }

    @Test func aRetransmittedDeleteIsAnsweredFromTheReplayCacheNotExecutedTwice() throws {
        let harness = try DeviceHarness()
        let generation = try harness.call(MediaListRequest()).generation
        let delete = try harness.datagram(MediaDeleteRequest(name: "IMG_20260301_101500.jpg", generation: generation), sequence: 77)
        let first = harness.raw(delete)
        let again = harness.raw(delete)
        #expect(first.count == 1 && first == again)
        let decoded = try DeviceHarness.decode(first[0], as: MediaDeleteRequest.self, sequence: 77, version: .v2)
        #expect(try decoded.get().generation == generation + 1)
        #expect(harness.store.generation == generation + 1)
        // Another peer with the same sequence is another request: the file is gone, so notFound.
        let other = try #require(harness.raw(delete, from: EmulatorPeer("127.0.0.1:50001")).first)
        let otherResult = try DeviceHarness.decode(other, as: MediaDeleteRequest.self, sequence: 77, version: .v2)
        #expect(throws: SMPDeviceError(group: 65, rc: 3, version: .v2)) { try otherResult.get() }
        // The same sequence with another payload is a new request.
        let next = try harness.datagram(MediaDeleteRequest(name: "IMG_20260301_101522.jpg"), sequence: 77)
        #expect(try DeviceHarness.decode(try #require(harness.raw(next).first), as: MediaDeleteRequest.self, sequence: 77, version: .v2).get().generation == generation + 2)
    }

    @Test func mediaListPagesFitTheMTUEvenWithHugeNames() throws {
        var seeds = (0..<300).map { MediaSeed.generated(String(format: "IMG_%04d.jpg", $0), type: .image, size: 10) }
        let huge = String(repeating: "h", count: 4092) + ".wav"
        seeds.append(.generated(huge, type: .audio, size: 5))
        let harness = try DeviceHarness(seeds: seeds)
        var names: [String] = []
        var offset: UInt64 = 0
        var total: UInt64 = 1
        while offset < total {
            let sequence = harness.nextSequence()
            let response = try #require(harness.raw(try harness.datagram(MediaListRequest(off: offset, limit: 256), sequence: sequence)).first)
            let page = try DeviceHarness.decode(response, as: MediaListRequest.self, sequence: sequence, version: .v2).get()
            #expect(!page.files.isEmpty)
            if page.files.count > 1 || page.files[0].name != huge { #expect(response.count <= 1024) }
            names += page.files.map(\.name)
            total = page.total
            offset += UInt64(page.files.count)
        }
        #expect(names == seeds.map(\.name.text).sorted { MediaFileName($0) < MediaFileName($1) })
        let images = try harness.call(MediaListRequest(type: 1, limit: 5))
        #expect(images.total == 300 && images.files.count == 5 && images.files.allSatisfy { $0.type == 1 })
        #expect(try harness.call(MediaListRequest(off: 1000)).files.isEmpty)
        #expect(try harness.failure(MediaListRequest(type: 7)) == SMPDeviceError(group: 65, rc: 6, version: .v2))
        #expect(try harness.failure(MediaListRequest(type: 7), version: .v1) == SMPDeviceError(group: nil, rc: 3, version: .v1))
    }

    @Test func deleteAllIsMissingOnTheWatch() throws {
        let watch = try DeviceHarness(profile: .watch)
        #expect(try watch.failure(MediaDeleteAllRequest()) == SMPDeviceError(group: 65, rc: 4, version: .v2))
        let glasses = try DeviceHarness()
        let result = try glasses.call(MediaDeleteAllRequest(type: 3))
        #expect(result.deleted == 2)
        #expect(try glasses.call(DeviceMediaCountRequest()) == DeviceMediaCountResponse(photos: 2, videos: 0, audios: 1))
    }

    @Test func longPollsAreHeldAndAnsweredOnChangeOrTimeout() throws {
        let harness = try DeviceHarness()
        let generation = harness.store.generation
        // Nothing new: held, no immediate answer.
        let changed = try harness.datagram(MediaChangedRequest(since: generation, waitMs: 10_000), sequence: 10)
        #expect(harness.raw(changed).isEmpty)
        let events = try harness.datagram(DeviceEventsRequest(since: 0, waitMs: 5000), sequence: 11)
        #expect(harness.raw(events).isEmpty)
        #expect(harness.raw(events).isEmpty, "a retransmission of a held request is not answered twice")
        harness.clock.advance(by: .seconds(4))
        #expect(harness.takeDeferred().isEmpty)
        // A new photo answers both.
        let photo = try harness.call(CapturePhotoRequest())
        let deferred = harness.takeDeferred()
        #expect(deferred.count == 2)
        let answers = try deferred.map { try SMPPacket.decode($0.0) }
        let changedAnswer = try MediaChangedRequest.decodeResponse(payload: try #require(answers.first { $0.header.sequence == 10 }).payload)
        #expect(changedAnswer == MediaChangedResponse(generation: generation + 1, types: [1]))
        let eventAnswer = try DeviceEventsRequest.decodeResponse(payload: try #require(answers.first { $0.header.sequence == 11 }).payload)
        #expect(eventAnswer.events.map(\.kind) == ["mediaChanged", "mediaCount", "storage"])
        #expect(eventAnswer.events.first?.value["generation"] == .unsigned(generation + 1))
        #expect(photo.name.hasPrefix("IMG_") && photo.name.hasSuffix(".jpg"))
        // The answered request is replayed, not re-held.
        #expect(harness.raw(changed).count == 1)
        // Timeout: an empty answer at the end of the wait.
        let seq = eventAnswer.seq
        #expect(harness.raw(try harness.datagram(DeviceEventsRequest(since: seq, waitMs: 2000), sequence: 12)).isEmpty)
        harness.clock.advance(by: .milliseconds(1999))
        #expect(harness.takeDeferred().isEmpty)
        harness.clock.advance(by: .milliseconds(1))
        let timeout = try #require(harness.takeDeferred().first)
        #expect(try DeviceEventsRequest.decodeResponse(payload: try SMPPacket.decode(timeout.0).payload) == DeviceEventsResponse(seq: seq, events: []))
        // An answer at once when there is news; wait 0 answers at once anyway.
        #expect(try harness.call(MediaChangedRequest(since: generation, waitMs: 0)).generation == generation + 1)
        #expect(try harness.call(MediaChangedRequest(since: generation + 1, waitMs: 0)) == MediaChangedResponse(generation: generation + 1, types: []))
        // A client from before a restart (or too far behind) gets a snapshot of every state.
        let snapshot = try harness.call(DeviceEventsRequest(since: 9999, waitMs: 0))
        let controls = ["keys", "shutter", "voiceAssistant", "apps", "serviceAuth", "teleprompter", "navigation", "navigationAlert",
                        "camera", "findPhone"]
        #expect(Set(snapshot.events.map(\.kind)) == Set(DeviceEventKind.all + controls))
    }

    @Test func hotspotOpensAfterTheDelayAndLeavingVoidsTheToken() throws {
        let harness = try DeviceHarness(hotspotDelay: .milliseconds(1500))
        #expect(try harness.failure(HotspotEnterTransferRequest()) == SMPDeviceError(group: 66, rc: 7, version: .v2))
        #expect(try harness.failure(HotspotConfigureRequest(mode: 1, channel: 6, ssid: "", password: "12345678")).rc == 6)
        #expect(try harness.failure(HotspotConfigureRequest(mode: 9, channel: 6, ssid: "x", password: "12345678")).rc == 6)
        _ = try harness.call(HotspotConfigureRequest(mode: 1, channel: 6, ssid: "glasses", password: "secret-pass"))
        _ = try harness.call(HotspotEnterTransferRequest())
        #expect(try harness.call(HotspotStateRequest()) == HotspotStateResponse(state: 0, ssid: "glasses"))
        #expect(try harness.call(DeviceWorkStateRequest()).state == WorkState.fileTransferring.rawValue)
        harness.clock.advance(by: .milliseconds(1500))
        let open = try harness.call(HotspotStateRequest())
        #expect(open.state == 1 && open.baseURL == "http://127.0.0.1:9" && open.token == harness.dataPlane.tokens.last)
        #expect(open.token?.count == 32)
        _ = try harness.call(HotspotLeaveTransferRequest())
        #expect(try harness.call(HotspotStateRequest()) == HotspotStateResponse(state: 0, ssid: "glasses"))
        #expect(!harness.dataPlane.isRunning)
        // Entering again gives a new token; an OS reset ends the session.
        _ = try harness.call(HotspotEnterTransferRequest())
        harness.clock.advance(by: .seconds(2))
        #expect(harness.dataPlane.tokens.count == 2 && harness.dataPlane.tokens[0] != harness.dataPlane.tokens[1])
        _ = try harness.call(OSResetRequest())
        #expect(try harness.call(HotspotStateRequest()).state == 0)
        // Leaving before the delay ends keeps the hotspot closed.
        _ = try harness.call(HotspotEnterTransferRequest())
        _ = try harness.call(HotspotLeaveTransferRequest())
        harness.clock.advance(by: .seconds(2))
        #expect(try harness.call(HotspotStateRequest()).state == 0 && harness.dataPlane.tokens.count == 2)
    }

    @Test func theLensProfileIsReadInPartsAndOnlyFromACamera() throws {
        let harness = try DeviceHarness()
        let expected = try #require(harness.device.lensProfile)
        #expect(expected == Data(EmulatedCamera.lensProfileJSON.utf8) && expected.count > 256)
        var profile = Data()
        while true {
            let part = try harness.call(CaptureLensProfileRequest(off: UInt64(profile.count)))
            #expect(part.off == UInt64(profile.count) && part.len == UInt64(expected.count) && part.data.count <= 256)
            profile.append(part.data)
            if profile.count == expected.count { break }
            #expect(!part.data.isEmpty)
        }
        #expect(profile == expected)
        // At the end: an empty part; past it: an invalid value.
        #expect(try harness.call(CaptureLensProfileRequest(off: UInt64(expected.count))).data.isEmpty)
        #expect(try harness.failure(CaptureLensProfileRequest(off: UInt64(expected.count) + 1)).rc == MGMTError.invalidValue.rawValue)
        // A device without a camera has none.
        let watch = try DeviceHarness(profile: .watch)
        #expect(try watch.failure(CaptureLensProfileRequest()).rc == MGMTError.notSupported.rawValue)
    }

    @Test func captureMakesRealMediaWithEvents() throws {
        let harness = try DeviceHarness()
        #expect(try harness.failure(CaptureAudioStopRequest()) == SMPDeviceError(group: 67, rc: 7, version: .v2))
        _ = try harness.call(CaptureAudioStartRequest())
        #expect(try harness.failure(CaptureVideoStartRequest()) == SMPDeviceError(group: 67, rc: 5, version: .v2))
        #expect(try harness.failure(CaptureAudioStartRequest(), version: .v1) == SMPDeviceError(group: nil, rc: 10, version: .v1))
        #expect(try harness.call(DeviceWorkStateRequest()).state == WorkState.recordingAudio.rawValue)
        harness.clock.advance(by: .seconds(10))
        let audio = try harness.call(CaptureAudioStopRequest()).name
        #expect(harness.store.record(named: MediaFileName(audio))?.size == 160_000)
        _ = try harness.call(CaptureMaxVideoWriteRequest(seconds: 3))
        #expect(try harness.call(CaptureMaxVideoReadRequest()).seconds == 3)
        #expect(try harness.failure(CaptureMaxVideoWriteRequest(seconds: 0)).rc == 6)
        _ = try harness.call(CaptureVideoStartRequest())
        harness.clock.advance(by: .seconds(5))
        // The recording stopped itself at the limit.
        #expect(try harness.failure(CaptureVideoStopRequest()).rc == 7)
        let videos = harness.store.list(type: .video)
        #expect(videos.count == 3)
        let video = try #require(videos.first { $0.changedGeneration > 1 })
        #expect(video.size == 4_500_000 && video.sixaxis)
        #expect(try harness.call(DeviceMediaCountRequest()) == DeviceMediaCountResponse(photos: 2, videos: 3, audios: 2))
        let events = try harness.call(DeviceEventsRequest(since: 0, waitMs: 0)).events.map(\.kind)
        #expect(events.filter { $0 == "mediaChanged" }.count == 2)
        #expect(events.contains("workState"))
    }

    @Test func factoryResetDeletesMediaAndPowerOffSilencesTheDevice() throws {
        let harness = try DeviceHarness()
        _ = try harness.call(DeviceLanguageWriteRequest(language: "ja"))
        #expect(try harness.failure(DeviceLanguageWriteRequest(language: "tlh")).rc == 6)
        _ = try harness.call(DeviceFactoryResetRequest())
        #expect(try harness.call(MediaListRequest()).total == 0)
        #expect(try harness.call(DeviceLanguageReadRequest()).language == "en")
        #expect(try harness.call(DeviceStorageRequest()).usedMB == 0)
        let off = harness.raw(try harness.datagram(DevicePowerOffRequest(), sequence: 250))
        #expect(off.count == 1, "power off is answered before the device goes dark")
        #expect(harness.raw(try harness.datagram(OSEchoRequest(d: "x"), sequence: 251)).isEmpty)
        harness.device.powerOn()
        #expect(try harness.call(OSEchoRequest(d: "back")).r == "back")
    }

    @Test func downloadChunkSizeFillsButNeverExceedsTheMTU() throws {
        for mtu in [64, 300, 976, 1024, 1500, 4096] {
            for (offset, total) in [(UInt64(0), UInt64?(10)), (0, 1 << 40), (23, nil), (70_000, nil), (1 << 33, nil)] {
                let count = SMPRequestHandler.downloadChunk(mtu: mtu, offset: offset, total: total)
                let payload = try CBOREncoder().encode(FileDownloadResponse(off: offset, data: Data(count: count), len: total))
                #expect(payload.count + 8 <= mtu)
                let bigger = try CBOREncoder().encode(FileDownloadResponse(off: offset, data: Data(count: count + 1), len: total))
                #expect(bigger.count + 8 > mtu, "mtu \(mtu) offset \(offset): \(count) bytes is not the most that fits")
            }
        }
    }
}
