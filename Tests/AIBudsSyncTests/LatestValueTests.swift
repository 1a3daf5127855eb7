import AIBudsSync
import Foundation
import Testing

/// The one latest-value slot: a slow reader gets the newest value and the skipped ones are counted.
struct LatestValueTests {
    @Test func aSlowReaderSkipsToTheNewestAndTheSkipsAreCounted() {
        let slot = LatestValue<Int>()
        #expect(slot.next(after: 0, timeout: 0.05) == nil, "nothing yet: the wait times out")
        slot.publish(1)
        let first = slot.next(after: 0)
        #expect(first?.0 == 1 && first?.1 == 1)
        for value in 2...5 { slot.publish(value) }
        let newest = slot.next(after: 1)
        #expect(newest?.0 == 5 && newest?.1 == 5)
        #expect(slot.skipped == 3)
    }

    @Test func aWaitingReaderWakesForANewValueAndForClose() async throws {
        let slot = LatestValue<String>()
        let reader = Thread { _ = slot.next(after: 0, timeout: nil) }
        reader.start()
        let waiter = Task.detached { slot.next(after: 0, timeout: nil) }
        try await Task.sleep(for: .milliseconds(50))
        slot.publish("frame")
        #expect(await waiter.value?.1 == "frame")
        let closing = Task.detached { slot.next(after: 1, timeout: nil) }
        try await Task.sleep(for: .milliseconds(50))
        slot.close()
        #expect(await closing.value == nil)
        #expect(slot.isClosed)
    }
}
