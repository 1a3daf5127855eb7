import AIBudsDigest
import AIBudsLog
import AIBudsMCUboot
import AIBudsWire
import Foundation

/// The firmware side of an emulated device: its slots, the upload in progress, the faults left
/// to inject, and how many upload bytes it accepted.
struct FirmwareRuntime: Sendable {
    var slots: FirmwareSlots
    var upload: FirmwareUpload?
    var faults: FirmwareFaults
    var corrupted = false
    var acceptedBytes = 0

    /// The slots from `<state>/firmware.json`, else the profile's factory firmware. Starting on
    /// saved state is a power cycle, so the bootloader runs as at any boot: a swap the power cut is
    /// undone, a pending image is swapped in, and a test image still unconfirmed reverts (MCUboot
    /// reverts at every boot, not only after `os reset`).
    static func start(profile: DeviceProfile, stateDirectory: URL?, faults: FirmwareFaults,
                      logger: any LogService) throws(EmulatorError) -> FirmwareRuntime {
        guard var slots = try FirmwareSlots.load(from: stateDirectory) else {
            let slots = FirmwareSlots.factory(for: profile)
            try slots.save(to: stateDirectory)
            return FirmwareRuntime(slots: slots, faults: faults)
        }
        if let image = slots.recoverInterruptedSwap() {
            logger.log(.warning, "emulator", "the power failed during the swap of image \(image); the previous firmware boots")
        }
        for outcome in slots.boot() {
            logger.log(.info, "emulator", "power-on boot: \(outcome)")
        }
        try slots.save(to: stateDirectory)
        return FirmwareRuntime(slots: slots, faults: faults)
    }
}

extension EmulatedDevice {
    /// How long the device is silent while it reboots into other firmware.
    static let rebootTime = Duration.milliseconds(300)

    /// The running version of image `image` (0 the main firmware, 1 the camera's), Zephyr-spelled.
    public func firmwareVersion(image: Int = 0) -> String? {
        firmware.withLock { $0.slots.images.indices.contains(image) ? $0.slots.images[image].primary.version.description : nil }
    }

    /// Image `state`: every occupied slot.
    public func firmwareStates() -> [ImageSlotState] {
        firmware.withLock { $0.slots.states() }
    }

    /// Image file bytes the device accepted in upload chunks so far (a resumed upload adds only
    /// what it sent again).
    public var firmwareBytesAccepted: Int { firmware.withLock { $0.acceptedBytes } }

    /// Image `slot info`.
    func firmwareSlotInfo() -> [ImageSlotInfo] {
        firmware.withLock { runtime in
            runtime.slots.images.enumerated().map { index, slots in
                ImageSlotInfo(image: UInt64(index), slots: [
                    ImageSlotSize(slot: 0, size: UInt64(slots.slotSize), uploadImageID: nil),
                    ImageSlotSize(slot: 1, size: UInt64(slots.slotSize), uploadImageID: UInt64(index)),
                ], maxImageSize: UInt64(slots.slotSize))
            }
        }
    }

    /// Image `state` write; persists.
    func writeFirmwareState(hash: Data?, confirm: Bool) throws(ImageManagementError) -> [ImageSlotState] {
        let directory = stateDirectory
        return try firmware.withLock { runtime throws(ImageManagementError) -> [ImageSlotState] in
            try runtime.slots.write(hash: hash, confirm: confirm)
            try? runtime.slots.save(to: directory)
            return runtime.slots.states()
        }
    }

    /// Image `erase`; abandons an upload to that slot.
    func eraseFirmware(slot: UInt64?) throws(ImageManagementError) {
        let directory = stateDirectory
        let ended = try firmware.withLock { runtime throws(ImageManagementError) -> Bool in
            try runtime.slots.erase(slot: slot)
            try? runtime.slots.save(to: directory)
            let ended = runtime.upload.map { UInt64($0.image * 2 + 1) == (slot ?? 1) } ?? false
            if ended { runtime.upload = nil }
            return ended
        }
        if ended { setFirmwareUploading(false) }
    }

    /// One Image `upload` chunk, by Zephyr's rules: the chunk at 0 starts an upload (or, with the
    /// `sha` of the one in progress, resumes it at the device's offset); a chunk at another offset
    /// than expected is answered with the expected one; the last chunk is checked (the `sha`, then
    /// the MCUboot header, TLVs and hash) before the image is stored in the secondary slot.
    func uploadFirmware(_ request: ImageUploadRequest) -> Result<ImageUploadResponse, ImageManagementError> {
        let directory = stateDirectory
        var silence: Duration?
        var uploading: Bool?
        let result = firmware.withLock { runtime -> Result<ImageUploadResponse, ImageManagementError> in
            if request.off == 0 {
                guard let length = request.len.flatMap({ Int(exactly: $0) }), length > 0 else { return .failure(.invalidLength) }
                let index = Int(clamping: request.image ?? 0)
                if let upload = runtime.upload, upload.image == index, upload.length == length, let sha = request.sha,
                    upload.sha == sha
                {
                    return .success(ImageUploadResponse(off: UInt64(upload.bytes.count)))
                }
                do throws(ImageManagementError) { try runtime.slots.checkUploadable(index) } catch { return .failure(error) }
                guard length <= runtime.slots.images[index].slotSize else { return .failure(.imageTooLarge) }
                if let sha = request.sha, sha.count != 32 { return .failure(.invalidHash) }
                let head = [UInt8](request.data.prefix(MCUbootImage.headerStructureSize))
                guard head.count >= min(length, MCUbootImage.headerStructureSize), head.count >= 4 else {
                    return .failure(.invalidImageHeader)
                }
                let magic = UInt32(head[0]) | UInt32(head[1]) << 8 | UInt32(head[2]) << 16 | UInt32(head[3]) << 24
                guard magic == MCUbootImage.magic else { return .failure(.invalidImageHeaderMagic) }
                if request.upgrade == true, head.count >= 28 {
                    let version = MCUbootVersion(
                        major: head[20], minor: head[21], revision: UInt16(head[22]) | UInt16(head[23]) << 8,
                        build: UInt32(head[24]) | UInt32(head[25]) << 8 | UInt32(head[26]) << 16 | UInt32(head[27]) << 24)
                    guard version > runtime.slots.images[index].primary.version else { return .failure(.currentVersionIsNewer) }
                }
                runtime.slots.images[index].secondary = nil  // the slot is erased for the new image
                runtime.upload = FirmwareUpload(image: index, length: length, sha: request.sha, bytes: Data())
                uploading = true
            }
            guard var upload = runtime.upload else { return .failure(.flashContextNotSet) }
            let offset = upload.bytes.count
            guard request.off == UInt64(offset) else { return .success(ImageUploadResponse(off: UInt64(offset))) }
            guard offset + request.data.count <= upload.length else { return .failure(.imageDataOverrun) }
            var data = request.data
            if let at = runtime.faults.corruptAtOffset, !runtime.corrupted, (offset..<offset + data.count).contains(at) {
                runtime.corrupted = true
                let index = data.startIndex + (at - offset)
                data[index] ^= 0x5A
            }
            upload.bytes.append(data)
            runtime.acceptedBytes += data.count
            let reached = upload.bytes.count
            if let drop = runtime.faults.dropAtOffsets.firstIndex(where: { $0 <= reached && $0 > offset }) {
                runtime.faults.dropAtOffsets.remove(at: drop)
                silence = runtime.faults.dropDuration
            }
            guard reached == upload.length else {
                runtime.upload = upload
                return .success(ImageUploadResponse(off: UInt64(reached)))
            }
            runtime.upload = nil
            uploading = false
            if let sha = upload.sha, Data(SHA256.hash(upload.bytes)) != sha { return .failure(.invalidHash) }
            let image: MCUbootImage
            do throws(MCUbootImageError) {
                image = try MCUbootImage(parsing: upload.bytes)
                try image.verify(upload.bytes, sha256: { SHA256.hash($0) })
            } catch {
                return .failure(error.imageManagementError)
            }
            runtime.slots.store(FirmwareSlotImage(version: image.version, hash: image.hash, size: upload.length), in: upload.image)
            try? runtime.slots.save(to: directory)
            return .success(ImageUploadResponse(off: UInt64(upload.length), match: upload.sha == nil ? nil : true))
        }
        if let uploading { setFirmwareUploading(uploading) }
        if let silence {
            logWarning("fault: the link drops for \(silence) during the firmware upload")
            goOffline(for: silence)
        }
        return result
    }

    /// What OS `reset` does to the firmware: an upload in progress ends; the bootloader swaps a
    /// pending image in or reverts an unconfirmed one, and the device is silent while it reboots.
    /// With the `power-loss=swap` fault, the power fails during a swap instead (the device stays
    /// off; the next start recovers).
    func rebootFirmware() {
        let directory = stateDirectory
        let (outcomes, powerLoss) = firmware.withLock { runtime -> ([FirmwareBoot], Bool) in
            runtime.upload = nil
            if runtime.faults.powerLossDuringSwap, runtime.slots.hasPendingSwap {
                runtime.faults.powerLossDuringSwap = false
                runtime.slots.swapInProgress = runtime.slots.images.firstIndex { $0.pending }
                try? runtime.slots.save(to: directory)
                return ([], true)
            }
            var outcomes = runtime.slots.boot()
            if runtime.faults.testImageFailsToBoot,
                case .swapped(let image)? = outcomes.first, !runtime.slots.images[image].primaryConfirmed
            {
                outcomes += runtime.slots.boot()  // the test image crashed: the bootloader reverts
            }
            if !outcomes.isEmpty { try? runtime.slots.save(to: directory) }
            return (outcomes, false)
        }
        setFirmwareUploading(false)
        if powerLoss {
            logWarning("fault: the power fails during the firmware swap")
            powerOff()
            return
        }
        for outcome in outcomes {
            switch outcome {
            case .swapped(let image): logWarning("image \(image): swapped in \(firmwareVersion(image: image) ?? "?") for a test boot")
            case .reverted(let image): logWarning("image \(image): not confirmed, reverted to \(firmwareVersion(image: image) ?? "?")")
            case .unchanged: break
            }
        }
        if !outcomes.isEmpty { goOffline(for: Self.rebootTime) }
    }

    /// Sets the `ota` work state (an event when it changes).
    private func setFirmwareUploading(_ on: Bool) {
        _ = try? update { state throws(EmulatorError) in state.firmwareUpload = on }
    }

    /// Makes the device answer nothing for `duration`.
    func goOffline(for duration: Duration) {
        state.withLock { $0.offline += 1 }
        clockSchedule(after: duration) { [weak self] in self?.state.withLock { $0.offline -= 1 } }
    }
}
