import AIBudsFoundation
import AIBudsCBOR
import AIBudsWire
import Foundation

/// The groups the emulator serves, with Zephyr-style names and handler counts for Enumeration
/// `details`.
struct SMPGroupDescription: Sendable {
    var id: UInt16
    var name: String
    var handlers: UInt64
}

extension SMPRequestHandler {
    /// The groups this device lists in the Enumeration group: the standard ones, the Device and
    /// Media groups, Hotspot when the profile has one, Capture when it can record.
    var supportedGroups: [SMPGroupDescription] {
        var groups = [
            SMPGroupDescription(id: SMPGroupID.os, name: "os mgmt", handlers: 5),
            SMPGroupDescription(id: SMPGroupID.image, name: "img mgmt", handlers: 4),
            SMPGroupDescription(id: SMPGroupID.file, name: "fs mgmt", handlers: 5),
            SMPGroupDescription(id: SMPGroupID.enumeration, name: "enum mgmt", handlers: 4),
            SMPGroupDescription(id: SMPGroupID.device, name: "device", handlers: 13),
            SMPGroupDescription(id: SMPGroupID.media, name: "media", handlers: 4),
        ]
        if device.profile.hasHotspot {
            groups.append(SMPGroupDescription(id: SMPGroupID.hotspot, name: "hotspot", handlers: 5))
        }
        if device.profile.hasAudioRecording || device.profile.hasCamera {
            groups.append(SMPGroupDescription(id: SMPGroupID.capture, name: "capture", handlers: 8))
        }
        if device.profile.capabilities.contains("aiAudio") {
            groups.append(SMPGroupDescription(id: SMPGroupID.audio, name: "audio", handlers: 6))
        }
        if device.canStreamLive {
            groups.append(SMPGroupDescription(id: SMPGroupID.live, name: "live", handlers: 3))
        }
        return groups
    }

    /// Decodes the request of `header` from `map` and executes it.
    func execute(_ header: SMPHeader, _ map: CBOR, peer: EmulatorPeer) -> Outcome {
        guard let type = SMPMessageCatalog.requestType(for: header) else {
            return .failure(.smp(.notSupported))
        }
        let request: any SMPRequest
        do {
            request = try CBORDecoder(limits: Self.requestLimits).decode(type, from: map)
        } catch {
            return .failure(header.group >= 64 ? .project(header.group, .invalidArgument) : .smp(.invalidValue))
        }
        switch header.group {
        case SMPGroupID.os: return os(request, peer: peer)
        case SMPGroupID.image: return image(request)
        case SMPGroupID.file: return file(request)
        case SMPGroupID.enumeration: return enumeration(request)
        case SMPGroupID.device: return deviceGroup(request)
        case SMPGroupID.media: return media(request)
        case SMPGroupID.hotspot: return hotspot(request)
        case SMPGroupID.capture: return capture(request)
        case SMPGroupID.audio: return audio(request)
        case SMPGroupID.live: return live(request)
        default: return .failure(.smp(.notSupported))
        }
    }

    // MARK: - OS (0)

    private func os(_ request: any SMPRequest, peer: EmulatorPeer) -> Outcome {
        switch request {
        case let echo as OSEchoRequest:
            return .reply(OSEchoResponse(r: echo.d))
        case is OSDatetimeReadRequest:
            return .reply(OSDatetimeReadResponse(datetime: UTCTime.dateTime(device.time)))
        case let write as OSDatetimeWriteRequest:
            guard let date = UTCTime.parseDateTime(write.datetime) else { return .failure(.osInvalidFormat) }
            device.setTime(date)
            return .reply(SMPEmptyResponse())
        case is OSResetRequest:
            return .replyThen(SMPEmptyResponse()) { [self] in
                device.resetSession()
                dropHeld(of: peer)
                device.rebootFirmware()
            }
        case is OSParamsRequest:
            return .reply(OSParamsResponse(bufSize: UInt64(device.mtu), bufCount: 4))
        case let info as OSInfoRequest:
            guard let output = osInfo(format: info.format ?? "s") else { return .failure(.osInvalidFormat) }
            return .reply(OSInfoResponse(output: output))
        default:
            return .failure(.smp(.notSupported))
        }
    }

    /// The OS `info` text for a format string, fields in Zephyr's order; nil for an unknown letter.
    private func osInfo(format: String) -> String? {
        let firmware = device.firmwareVersion() ?? device.profile.firmware
        let fields: [(Character, String)] = [
            ("s", "AIBudsOS"), ("n", device.identity.name), ("r", firmware),
            ("v", "\(firmware)-emulator"), ("b", "2026-03-01T00:00:00"), ("m", "arm"),
            ("p", "cortex-m33"), ("i", device.profile.model), ("o", "AIBuds Emulator"),
        ]
        let letters = Set(format)
        guard letters.isSubset(of: Set(fields.map(\.0) + ["a"])) else { return nil }
        let wanted = letters.contains("a") ? Set(fields.map(\.0)) : letters
        return fields.filter { wanted.contains($0.0) }.map(\.1).joined(separator: " ")
    }

    // MARK: - Image (1)

    private func image(_ request: any SMPRequest) -> Outcome {
        switch request {
        case is ImageStateReadRequest:
            return .reply(ImageStateResponse(images: device.firmwareStates()))
        case let write as ImageStateWriteRequest:
            do {
                return .reply(ImageStateResponse(images: try device.writeFirmwareState(hash: write.hash, confirm: write.confirm ?? false)))
            } catch {
                return .failure(.image(error))
            }
        case let upload as ImageUploadRequest:
            switch device.uploadFirmware(upload) {
            case .success(let response): return .reply(response)
            case .failure(let code): return .failure(.image(code))
            }
        case let erase as ImageEraseRequest:
            do {
                try device.eraseFirmware(slot: erase.slot)
                return .reply(SMPEmptyResponse())
            } catch {
                return .failure(.image(error))
            }
        case is ImageSlotInfoRequest:
            return .reply(ImageSlotInfoResponse(images: device.firmwareSlotInfo()))
        default:
            return .failure(.smp(.notSupported))
        }
    }

    // MARK: - File (8)

    /// The device file name of a File group path (`/media/<name>`), nil for any other path.
    private func mediaName(_ path: String) -> MediaFileName? {
        let prefix = Array("/media/".utf8)
        let bytes = Array(path.utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
        return MediaFileName(String(decoding: bytes.dropFirst(prefix.count), as: UTF8.self))
    }

    private func file(_ request: any SMPRequest) -> Outcome {
        let store = device.store
        switch request {
        case let download as FileDownloadRequest:
            guard let name = mediaName(download.name), let object = store.object(named: name) else {
                return .failure(.fileNotFound)
            }
            guard download.off <= object.size else { return .failure(.fileOffsetPastEnd) }
            // Every chunk of a file has the same size (the last one excepted), as Zephyr's do: the size
            // that fits the MTU at the largest offset with `len` present.
            let count = Self.downloadChunk(mtu: device.mtu, offset: object.size, total: object.size)
            do {
                let data = try store.read(object, offset: download.off, count: count)
                return .reply(FileDownloadResponse(off: download.off, data: data, len: download.off == 0 ? object.size : nil))
            } catch {
                return .failure(error.code == .notFound ? .fileNotFound : .fileUnknown)
            }
        case let upload as FileUploadRequest:
            guard let name = mediaName(upload.name) else { return .failure(.fileMountPointNotFound) }
            do {
                let next = try store.upload(name, offset: upload.off, data: upload.data, total: upload.len)
                return .reply(FileUploadResponse(off: next))
            } catch {
                switch error.code {
                case .noSpace: return .failure(.fileWriteFailed)
                case .invalidArgument where MediaFileType.emulatorType(ofFileNamed: name) != nil: return .failure(.smp(.invalidValue))
                case .invalidArgument: return .failure(.fileInvalidName)
                default: return .failure(.fileUnknown)
                }
            }
        case let status as FileStatusRequest:
            guard let name = mediaName(status.name), let object = store.object(named: name) else {
                return .failure(.fileNotFound)
            }
            return .reply(FileStatusResponse(len: object.size))
        case let hash as FileHashRequest:
            guard let kind = MediaDigestKind(rawValue: hash.type ?? MediaDigestKind.crc32.rawValue) else {
                return .failure(.fileHashNotFound)
            }
            guard hash.len != 0 else { return .failure(.smp(.invalidValue)) }
            guard let name = mediaName(hash.name), let object = store.object(named: name) else {
                return .failure(.fileNotFound)
            }
            let offset = hash.off ?? 0
            guard offset <= object.size else { return .failure(.fileOffsetPastEnd) }
            do {
                let (digest, length) = try store.digest(kind, of: object, offset: offset, length: hash.len)
                let output: FileHashOutput
                switch digest {
                case .sha256(let bytes): output = .bytes(Data(bytes))
                case .crc32(let value): output = .uint(UInt64(value))
                }
                return .reply(FileHashResponse(type: kind.rawValue, off: offset, len: length, output: output))
            } catch {
                return .failure(error.code == .notFound ? .fileNotFound : .fileUnknown)
            }
        case is FileSupportedHashesRequest:
            return .reply(FileSupportedHashesResponse(types: [
                "sha256": FileHashTypeInfo(format: 1, size: 32),
                "crc32": FileHashTypeInfo(format: 0, size: 4),
            ]))
        case is FileCloseRequest:
            return .reply(SMPEmptyResponse())
        default:
            return .failure(.smp(.notSupported))
        }
    }

    /// How many data bytes a download response at `offset` carries so that the whole packet
    /// (header and `{off, data, len?}`) fits `mtu`.
    static func downloadChunk(mtu: Int, offset: UInt64, total: UInt64?) -> Int {
        func uintSize(_ value: UInt64) -> Int {
            value < 24 ? 1 : value <= 0xFF ? 2 : value <= 0xFFFF ? 3 : value <= 0xFFFF_FFFF ? 5 : 9
        }
        // map header, "off" + value, "data" key; "len" + value on the first chunk
        var fixed = 1 + 4 + uintSize(offset) + 5
        if let total { fixed += 4 + uintSize(total) }
        let budget = mtu - SMPHeader.size - fixed
        guard budget > 1 else { return 0 }
        var count = budget - 1
        while count > 0, count + uintSize(UInt64(count)) > budget { count -= 1 }
        return count
    }

    // MARK: - Enumeration (10)

    private func enumeration(_ request: any SMPRequest) -> Outcome {
        let groups = supportedGroups
        switch request {
        case is EnumCountRequest:
            return .reply(EnumCountResponse(count: UInt64(groups.count)))
        case is EnumListRequest:
            return .reply(EnumListResponse(groups: groups.map(\.id)))
        case let single as EnumSingleRequest:
            guard single.index < UInt64(groups.count) else { return .failure(.enumIndexTooLarge) }
            let index = Int(single.index)
            return .reply(EnumSingleResponse(group: groups[index].id, end: index == groups.count - 1 ? true : nil))
        case let details as EnumDetailsRequest:
            let wanted = details.groups.map(Set.init)
            return .reply(EnumDetailsResponse(groups: groups.filter { wanted?.contains($0.id) ?? true }.map {
                EnumGroupDetails(group: $0.id, name: $0.name, handlers: $0.handlers)
            }))
        default:
            return .failure(.smp(.notSupported))
        }
    }

    // MARK: - Device (64)

    private func deviceGroup(_ request: any SMPRequest) -> Outcome {
        let group = SMPGroupID.device
        switch request {
        case is DeviceInfoRequest:
            let profile = device.profile
            return .reply(DeviceInfoResponse(
                name: device.identity.name, product: profile.product.rawValue, model: profile.model,
                serial: device.identity.serial, firmware: device.firmwareVersion() ?? profile.firmware, mac: device.identity.mac,
                capabilities: profile.capabilities + (device.canStreamLive ? ["liveStreaming"] : []), mtu: UInt64(device.mtu)))
        case is DeviceBatteryRequest:
            let battery = device.battery()
            return .reply(DeviceBatteryResponse(level: UInt64(battery.level), charging: battery.charging))
        case is DeviceStorageRequest:
            let storage = device.storage()
            return .reply(DeviceStorageResponse(usedMB: storage.usedMB, freeMB: storage.freeMB))
        case is DeviceMediaCountRequest:
            let counts = device.store.counts()
            return .reply(DeviceMediaCountResponse(photos: UInt64(counts.photos), videos: UInt64(counts.videos),
                                                   audios: UInt64(counts.audios)))
        case is DeviceTimeReadRequest:
            return .reply(DeviceTimeReadResponse(time: Int(device.time.timeIntervalSince1970.rounded(.down))))
        case let write as DeviceTimeWriteRequest:
            // `magnitude`, not `abs`: `abs(Int.min)` traps.
            guard write.time.magnitude < 1 << 40 else { return .failure(.project(group, .invalidArgument)) }
            device.setTime(Date(timeIntervalSince1970: Double(write.time)))
            return .reply(SMPEmptyResponse())
        case is DeviceLanguageReadRequest:
            let language = device.language()
            return .reply(DeviceLanguageReadResponse(language: language.current, supported: language.supported))
        case let write as DeviceLanguageWriteRequest:
            do { try device.setLanguage(write.language) } catch { return .failure(.project(group, error)) }
            return .reply(SMPEmptyResponse())
        case is DeviceWorkStateRequest:
            return .reply(DeviceWorkStateResponse(state: device.workState.rawValue))
        case let events as DeviceEventsRequest:
            return .hold(.events(since: events.since), wait: .milliseconds(Int64(clamping: events.waitMs)))
        case is DeviceFactoryResetRequest:
            device.factoryReset()
            return .reply(SMPEmptyResponse())
        case is DeviceFormatStorageRequest:
            guard device.profile.capabilities.contains("common") else { return .failure(.project(group, .notSupported)) }
            do { return .reply(DeviceFormatStorageResponse(deleted: UInt64(try device.formatStorage()))) } catch {
                return .failure(.project(group, error))
            }
        case is DevicePowerOffRequest:
            return .replyThen(SMPEmptyResponse()) { [device] in device.powerOff() }
        case let find as DeviceFindRequest:
            device.setFinding(find.on)
            return .reply(SMPEmptyResponse())
        case let read as DeviceSettingReadRequest:
            do { return .reply(DeviceSettingResponse(name: read.name, value: try device.setting(read.name))) } catch {
                return .failure(.project(group, error))
            }
        case let write as DeviceSettingWriteRequest:
            do {
                return .reply(DeviceSettingResponse(name: write.name, value: try device.writeSetting(write.name, write.value)))
            } catch {
                return .failure(.project(group, error))
            }
        case let action as DeviceActionRequest:
            do {
                let result = try device.performAction(action.name, action.args)
                return .reply(DeviceActionResponse(setting: result.setting, value: result.value))
            } catch {
                return .failure(.project(group, error))
            }
        default:
            return .failure(.smp(.notSupported))
        }
    }

    // MARK: - Media (65)

    private func media(_ request: any SMPRequest) -> Outcome {
        let group = SMPGroupID.media
        let store = device.store
        switch request {
        case let list as MediaListRequest:
            guard let type = Self.typeFilter(list.type) else { return .failure(.project(group, .invalidArgument)) }
            let (generation, total, page) = store.page(
                type: type, offset: Int(clamping: list.off ?? 0), limit: Int(min(list.limit ?? 64, 256)))
            let budget = max(device.mtu, Int(clamping: min(list.mtu ?? 0, UInt64(device.maxListResponse))))
            return .reply(MediaListPage.payload(generation: generation, total: UInt64(total), records: page, packetSize: budget))
        case let delete as MediaDeleteRequest:
            do {
                let generation = try store.delete(MediaFileName(delete.name), ifGeneration: delete.generation)
                return .reply(MediaDeleteResponse(generation: generation))
            } catch {
                return .failure(.project(group, error))
            }
        case let deleteAll as MediaDeleteAllRequest:
            guard device.profile.supportsDeleteAll else { return .failure(.project(group, .notSupported)) }
            guard let type = Self.typeFilter(deleteAll.type) else { return .failure(.project(group, .invalidArgument)) }
            let result = store.deleteAll(type: type)
            let progress = DeleteProgressEvent(deleted: UInt64(result.deleted), total: UInt64(result.deleted))
            device.appendEvent(DeviceGestureEventKind.deleteProgress, (try? CBOREncoder().encodeValue(progress)) ?? .map([:]))
            return .reply(MediaDeleteAllResponse(generation: result.generation, deleted: UInt64(result.deleted)))
        case let changed as MediaChangedRequest:
            return .hold(.mediaChanged(since: changed.since), wait: .milliseconds(Int64(clamping: changed.waitMs)))
        default:
            return .failure(.smp(.notSupported))
        }
    }

    /// A `type` filter: `.some(nil)` for none, `.some(type)` for image, audio or video, nil when
    /// the value is not a media type.
    static func typeFilter(_ raw: Int?) -> MediaFileType?? {
        guard let raw else { return .some(nil) }
        guard let type = MediaFileType(rawValue: raw), type != .unknown else { return nil }
        return .some(type)
    }

    // MARK: - Hotspot (66)

    private func hotspot(_ request: any SMPRequest) -> Outcome {
        let group = SMPGroupID.hotspot
        do {
            switch request {
            case let configure as HotspotConfigureRequest:
                guard device.profile.hasHotspot else { return .failure(.project(group, .notSupported)) }
                guard let mode = HotspotMode(rawValue: configure.mode) else { return .failure(.project(group, .invalidArgument)) }
                try device.configureHotspot(HotspotConfiguration(mode: mode, channel: configure.channel,
                                                                 ssid: configure.ssid, password: configure.password))
                return .reply(SMPEmptyResponse())
            case is HotspotEnterTransferRequest:
                try device.enterTransferMode()
                return .reply(SMPEmptyResponse())
            case is HotspotLeaveTransferRequest:
                guard device.profile.hasHotspot else { return .failure(.project(group, .notSupported)) }
                device.leaveTransferMode()
                return .reply(SMPEmptyResponse())
            case is HotspotCancelTransferRequest:
                guard device.profile.hasHotspot else { return .failure(.project(group, .notSupported)) }
                try device.cancelTransfers()
                return .reply(SMPEmptyResponse())
            case is HotspotStateRequest:
                let status = try device.hotspotStatus()
                return .reply(HotspotStateResponse(state: status.state.rawValue, ssid: status.ssid,
                                                   baseURL: status.baseURL, token: status.token))
            default:
                return .failure(.smp(.notSupported))
            }
        } catch {
            return .failure(.project(group, error))
        }
    }

    // MARK: - Capture (67)

    private func capture(_ request: any SMPRequest) -> Outcome {
        let group = SMPGroupID.capture
        do {
            switch request {
            case let start as CaptureAudioStartRequest:
                try device.startRecording(video: false, ai: start.ai ?? false)
                return .reply(SMPEmptyResponse())
            case is CaptureAudioStopRequest:
                return .reply(CaptureFileResponse(name: try device.stopRecording(video: false).text))
            case let photo as CapturePhotoRequest:
                return .reply(CaptureFileResponse(name: try device.takePhoto(mode: photo.mode ?? 0).text))
            case is CaptureVideoStartRequest:
                try device.startRecording(video: true)
                return .reply(SMPEmptyResponse())
            case is CaptureVideoStopRequest:
                return .reply(CaptureFileResponse(name: try device.stopRecording(video: true).text))
            case is CaptureMaxAudioReadRequest:
                return .reply(CaptureDurationResponse(seconds: try device.maxDuration(video: false)))
            case let write as CaptureMaxAudioWriteRequest:
                try device.setMaxDuration(video: false, seconds: write.seconds)
                return .reply(SMPEmptyResponse())
            case is CaptureMaxVideoReadRequest:
                return .reply(CaptureDurationResponse(seconds: try device.maxDuration(video: true)))
            case let write as CaptureMaxVideoWriteRequest:
                try device.setMaxDuration(video: true, seconds: write.seconds)
                return .reply(SMPEmptyResponse())
            case let read as CaptureLensProfileRequest:
                guard let profile = device.lensProfile else { return .failure(.smp(.notSupported)) }
                guard read.off <= UInt64(profile.count) else { return .failure(.smp(.invalidValue)) }
                let start = Int(read.off), end = min(profile.count, start + EmulatedCamera.lensProfilePart)
                return .reply(CaptureLensProfileResponse(off: read.off, len: UInt64(profile.count), data: profile.subdata(in: start..<end)))
            default:
                return .failure(.smp(.notSupported))
            }
        } catch {
            return .failure(.project(group, error))
        }
    }

    // MARK: - Audio (68)

    private func audio(_ request: any SMPRequest) -> Outcome {
        let group = SMPGroupID.audio
        do {
            switch request {
            case is AudioMicStartRequest:
                return .reply(AudioStreamStartResponse(stream: try device.startMicrophone(), format: .speech))
            case let read as AudioMicReadRequest:
                guard device.audio.knowsMicrophone(read.stream) else {
                    return .failure(.project(group, .badState))
                }
                return .hold(.microphone(stream: read.stream, from: read.from), wait: .milliseconds(Int64(clamping: read.waitMs)))
            case let stop as AudioMicStopRequest:
                try device.stopMicrophone(stop.stream)
                return .reply(SMPEmptyResponse())
            case is AudioSpeakerStartRequest:
                return .reply(AudioStreamStartResponse(stream: try device.startSpeaker(), format: .speech))
            case let write as AudioSpeakerWriteRequest:
                guard write.frames.count <= 50 else { return .failure(.project(group, .invalidArgument)) }
                try device.audio.writeSpeaker(write.stream, first: write.first, frames: write.frames)
                return .reply(SMPEmptyResponse())
            case let stop as AudioSpeakerStopRequest:
                return .reply(try device.stopSpeaker(stop.stream, frames: stop.frames))
            default:
                return .failure(.smp(.notSupported))
            }
        } catch {
            return .failure(.project(group, error))
        }
    }

    // MARK: - Live (72)

    private func live(_ request: any SMPRequest) -> Outcome {
        do {
            switch request {
            case let start as LiveStartRequest: return .reply(try device.startLiveStream(start))
            case is LiveStopRequest:
                try device.stopLiveStream()
                return .reply(SMPEmptyResponse())
            case is LiveStateRequest: return .reply(try device.liveState())
            default: return .failure(.smp(.notSupported))
            }
        } catch {
            return .failure(.project(SMPGroupID.live, error))
        }
    }
}
