import AIBudsDigest
import AIBudsMCUboot
import AIBudsWire
import Foundation

/// The image in one firmware slot.
struct FirmwareSlotImage: Codable, Equatable, Sendable {
    /// The version from the image header.
    var version: MCUbootVersion
    /// The SHA-256 from the image's TLV area.
    var hash: Data
    /// The file size.
    var size: Int
}

/// One image's two MCUboot slots (swap with revert): the primary runs, uploads go to the
/// secondary.
struct FirmwareImageSlots: Codable, Equatable, Sendable {
    /// The running image.
    var primary: FirmwareSlotImage
    /// Whether the running image is confirmed (false after a test swap until `confirm`).
    var primaryConfirmed = true
    /// The uploaded image, or after a swap the previous one.
    var secondary: FirmwareSlotImage?
    /// Whether the secondary image is swapped in at the next reset.
    var pending = false
    /// Whether that swap is permanent (no confirmation needed).
    var permanent = false
    /// The size of each slot: the largest image file it takes.
    var slotSize: Int
}

/// An upload in progress to a secondary slot (kept in RAM, as Zephyr does).
struct FirmwareUpload: Sendable {
    var image: Int
    var length: Int
    var sha: Data?
    var bytes: Data
}

/// What a reset did to the firmware.
enum FirmwareBoot: Equatable, Sendable {
    /// Nothing changed.
    case unchanged
    /// Image `image` swapped in a test (or permanent) image.
    case swapped(image: Int)
    /// Image `image` was not confirmed after its test boot and went back to the previous one.
    case reverted(image: Int)
}

/// The firmware of an emulated device: MCUboot slots per image, Zephyr's img_mgmt rules for
/// upload, test, confirm and erase, and the bootloader's swap and revert at reset. A pure value;
/// persisted as `<state>/firmware.json`.
struct FirmwareSlots: Codable, Equatable, Sendable {
    /// Image 0 the main firmware, image 1 (glasses) the camera module's.
    var images: [FirmwareImageSlots]
    /// Set while a swap runs; found set at start when the power failed during one.
    var swapInProgress: Int?

    /// The factory firmware of a profile: image 0 at the profile's version, the camera image at
    /// 1.2.0 on glasses; both confirmed, secondaries empty.
    static func factory(for profile: DeviceProfile) -> FirmwareSlots {
        let main = MCUbootVersion(profile.firmware) ?? MCUbootVersion(major: 1, minor: 0, revision: 0)
        var images = [FirmwareImageSlots(primary: builtIn(profile.model, main), slotSize: 2 << 20)]
        if profile.hasCamera {
            images.append(FirmwareImageSlots(primary: builtIn(profile.model + " camera", MCUbootVersion(major: 1, minor: 2, revision: 0)),
                                             slotSize: 1 << 20))
        }
        return FirmwareSlots(images: images)
    }

    /// The slot image of a small built-in MCUboot image named after `what` at `version`.
    private static func builtIn(_ what: String, _ version: MCUbootVersion) -> FirmwareSlotImage {
        let file = MCUbootImage.build(body: Data("AIBuds firmware: \(what) \(version)".utf8), version: version,
                                      sha256: { SHA256.hash($0) })
        let parsed = try? MCUbootImage(parsing: file)
        return FirmwareSlotImage(version: version, hash: parsed?.hash ?? Data(), size: file.count)
    }

    // MARK: - State

    /// Image `state` as Zephyr reports it: each occupied slot; `image` only with several images.
    func states() -> [ImageSlotState] {
        var states: [ImageSlotState] = []
        for (index, slots) in images.enumerated() {
            let image: UInt64? = images.count > 1 ? UInt64(index) : nil
            states.append(ImageSlotState(image: image, slot: 0, version: slots.primary.version.description,
                                         hash: slots.primary.hash, bootable: true, confirmed: slots.primaryConfirmed,
                                         active: true))
            if let secondary = slots.secondary {
                states.append(ImageSlotState(image: image, slot: 1, version: secondary.version.description, hash: secondary.hash,
                                             bootable: true, pending: slots.pending, confirmed: !slots.primaryConfirmed,
                                             permanent: slots.pending && slots.permanent))
            }
        }
        return states
    }

    /// Image `state` write: `confirm` false tests the secondary image with `hash` at the next
    /// reset; `confirm` true makes the running image permanent (no hash or its hash) or swaps the
    /// secondary one in for good.
    mutating func write(hash: Data?, confirm: Bool) throws(ImageManagementError) {
        if let hash, hash.count != 32 { throw .invalidHash }
        if confirm, hash == nil || images.contains(where: { $0.primary.hash == hash }) {
            let index = hash.flatMap { hash in images.firstIndex { $0.primary.hash == hash } } ?? 0
            images[index].primaryConfirmed = true
            return
        }
        guard let hash else { throw .invalidHash }
        guard let index = images.firstIndex(where: { $0.secondary?.hash == hash }) else {
            if images.contains(where: { $0.primary.hash == hash }) { throw .testOfActiveDenied }
            throw .hashNotFound
        }
        // The secondary of an unconfirmed test boot is the image to go back to, not an update.
        guard images[index].primaryConfirmed else { throw .imageAlreadyPending }
        images[index].pending = true
        images[index].permanent = confirm
    }

    /// Image `erase` of Zephyr's slot number (1 image 0's secondary, 3 image 1's; nil 1).
    mutating func erase(slot: UInt64?) throws(ImageManagementError) {
        let slot = slot ?? 1
        guard slot % 2 == 1, Int(clamping: slot / 2) < images.count else { throw .invalidSlot }
        let index = Int(slot / 2)
        guard !images[index].pending, images[index].primaryConfirmed else { throw .imageAlreadyPending }
        images[index].secondary = nil
    }

    /// Whether an upload may replace image `index`'s secondary slot.
    func checkUploadable(_ index: Int) throws(ImageManagementError) {
        guard images.indices.contains(index) else { throw .invalidSlot }
        guard !images[index].pending, images[index].primaryConfirmed else { throw .noFreeSlot }
    }

    /// Stores a verified upload in image `index`'s secondary slot, not pending.
    mutating func store(_ image: FirmwareSlotImage, in index: Int) {
        images[index].secondary = image
        images[index].pending = false
        images[index].permanent = false
    }

    // MARK: - Boot

    /// What the bootloader does at a reset: a pending image is swapped in (unconfirmed unless the
    /// swap is permanent); a test image still unconfirmed goes back to the previous one.
    mutating func boot() -> [FirmwareBoot] {
        var outcomes: [FirmwareBoot] = []
        for index in images.indices {
            var slots = images[index]
            if slots.pending, let secondary = slots.secondary {
                slots.secondary = slots.primary
                slots.primary = secondary
                slots.primaryConfirmed = slots.permanent
                slots.pending = false
                slots.permanent = false
                outcomes.append(.swapped(image: index))
            } else if !slots.primaryConfirmed, let secondary = slots.secondary {
                slots.secondary = slots.primary
                slots.primary = secondary
                slots.primaryConfirmed = true
                outcomes.append(.reverted(image: index))
            }
            images[index] = slots
        }
        return outcomes
    }

    /// What the bootloader does when it finds a swap the power cut: it puts the old image back
    /// (the copy in the primary slot cannot be trusted) and drops the pending request, so the
    /// previous firmware boots; the uploaded image stays in the secondary slot.
    mutating func recoverInterruptedSwap() -> Int? {
        guard let index = swapInProgress else { return nil }
        swapInProgress = nil
        if images.indices.contains(index) {
            images[index].pending = false
            images[index].permanent = false
        }
        return index
    }

    /// Whether a reset now would swap an image.
    var hasPendingSwap: Bool { images.contains { $0.pending && $0.secondary != nil } }

    // MARK: - Persistence

    static func load(from folder: URL?) throws(EmulatorError) -> FirmwareSlots? {
        guard let url = folder?.appendingPathComponent("firmware.json"), FileManager.default.fileExists(atPath: url.path) else {
            return nil
        }
        do {
            return try JSONDecoder().decode(FirmwareSlots.self, from: Data(contentsOf: url))
        } catch {
            throw EmulatorError(.invalidState, "cannot read \(url.path)", underlying: error)
        }
    }

    func save(to folder: URL?) throws(EmulatorError) {
        guard let folder else { return }
        try AtomicFile.writeJSON(self, what: "the firmware slots", to: folder.appendingPathComponent("firmware.json"))
    }
}
