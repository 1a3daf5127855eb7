@testable import AIBudsEmulator
import AIBudsLog
import AIBudsMCUboot
import AIBudsWire
import Foundation
import Testing

/// The emulator's MCUboot slots: test, swap, confirm, revert, erase and power loss, as a value.
@Suite struct FirmwareSlotsTests {
    private let new = FirmwareSlotImage(version: MCUbootVersion("2.5.0")!, hash: Data(repeating: 7, count: 32), size: 1_000)

    private func uploaded() -> FirmwareSlots {
        var slots = FirmwareSlots.factory(for: .glasses)
        slots.store(new, in: 0)
        return slots
    }

    @Test func aTestImageRunsOnceAndRevertsUnlessConfirmed() throws {
        var slots = uploaded()
        let old = slots.images[0].primary
        try slots.write(hash: new.hash, confirm: false)
        #expect(slots.states().contains { $0.slot == 1 && $0.isPending && !$0.isPermanent })
        #expect(slots.boot() == [.swapped(image: 0)])
        #expect(slots.images[0].primary == new && !slots.images[0].primaryConfirmed)
        // The previous image waits in the secondary slot, as the one to go back to.
        #expect(slots.states().contains { $0.slot == 1 && $0.isConfirmed && $0.hash == old.hash })
        #expect(throws: ImageManagementError.noFreeSlot) { try slots.checkUploadable(0) }
        #expect(slots.boot() == [.reverted(image: 0)])
        #expect(slots.images[0].primary == old && slots.images[0].primaryConfirmed)
        #expect(slots.boot() == [])
    }

    /// A power cycle (the emulator restarted on its saved state) is a boot: the unconfirmed test
    /// image that runs goes back to the previous one, as MCUboot does at any boot.
    @Test func aRestartOnSavedStateRevertsAnUnconfirmedTestImage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slots-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        var first = try FirmwareRuntime.start(profile: .named(.glasses), stateDirectory: folder, faults: FirmwareFaults(), logger: NullLogService())
        let old = first.slots.images[0].primary
        first.slots.store(new, in: 0)
        try first.slots.write(hash: new.hash, confirm: false)
        #expect(first.slots.boot() == [.swapped(image: 0)])
        try first.slots.save(to: folder)
        // Power off while the test image runs unconfirmed, then on again.
        let second = try FirmwareRuntime.start(profile: .named(.glasses), stateDirectory: folder, faults: FirmwareFaults(), logger: NullLogService())
        #expect(second.slots.images[0].primary == old && second.slots.images[0].primaryConfirmed)
        // And the reverted state is what the next start reads.
        let third = try FirmwareRuntime.start(profile: .named(.glasses), stateDirectory: folder, faults: FirmwareFaults(), logger: NullLogService())
        #expect(third.slots.images[0].primary == old)
        // A pending (tested, not yet swapped) image is swapped in by a power-on boot too.
        var pending = third
        try pending.slots.write(hash: new.hash, confirm: false)
        try pending.slots.save(to: folder)
        let fourth = try FirmwareRuntime.start(profile: .named(.glasses), stateDirectory: folder, faults: FirmwareFaults(), logger: NullLogService())
        #expect(fourth.slots.images[0].primary == new && !fourth.slots.images[0].primaryConfirmed)
    }

    @Test func aConfirmedTestImageStays() throws {
        var slots = uploaded()
        try slots.write(hash: new.hash, confirm: false)
        _ = slots.boot()
        try slots.write(hash: nil, confirm: true)
        #expect(slots.boot() == [])
        #expect(slots.images[0].primary == new && slots.images[0].primaryConfirmed)
    }

    @Test func aPermanentImageNeedsNoConfirmation() throws {
        var slots = uploaded()
        try slots.write(hash: new.hash, confirm: true)
        #expect(slots.states().contains { $0.slot == 1 && $0.isPending && $0.isPermanent })
        #expect(slots.boot() == [.swapped(image: 0)])
        #expect(slots.images[0].primaryConfirmed)
        #expect(slots.boot() == [])
    }

    @Test func refusalsHaveZephyrsCodes() throws {
        var slots = uploaded()
        let running = slots.images[0].primary.hash
        #expect(throws: ImageManagementError.testOfActiveDenied) { try slots.write(hash: running, confirm: false) }
        #expect(throws: ImageManagementError.hashNotFound) { try slots.write(hash: Data(repeating: 1, count: 32), confirm: false) }
        #expect(throws: ImageManagementError.invalidHash) { try slots.write(hash: Data([1, 2]), confirm: false) }
        try slots.write(hash: new.hash, confirm: false)
        #expect(throws: ImageManagementError.imageAlreadyPending) { try slots.erase(slot: 1) }
        #expect(throws: ImageManagementError.invalidSlot) { try slots.erase(slot: 5) }
        #expect(throws: ImageManagementError.noFreeSlot) { try slots.checkUploadable(0) }
        #expect(throws: ImageManagementError.invalidSlot) { try slots.checkUploadable(2) }
    }

    @Test func aSwapThePowerCutBootsThePreviousImage() throws {
        var slots = uploaded()
        let old = slots.images[0].primary
        try slots.write(hash: new.hash, confirm: false)
        slots.swapInProgress = 0
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try slots.save(to: folder)
        var restarted = try #require(try FirmwareSlots.load(from: folder))
        #expect(restarted.recoverInterruptedSwap() == 0)
        #expect(restarted.images[0].primary == old && restarted.images[0].primaryConfirmed)
        #expect(restarted.images[0].secondary == new && !restarted.images[0].pending)
        #expect(restarted.boot() == [])
    }

    @Test func stateListsImageNumbersOnlyWithSeveralImages() {
        #expect(FirmwareSlots.factory(for: .glasses).states().map(\.image) == [0, 1])
        #expect(FirmwareSlots.factory(for: .earbuds).states().map(\.image) == [nil])
        #expect(FirmwareSlots.factory(for: .earbuds).states().first?.version == "1.8.0")
    }
}
