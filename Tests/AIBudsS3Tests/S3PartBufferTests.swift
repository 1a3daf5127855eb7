@testable import AIBudsS3
import AIBudsTestKit
import Foundation
import Testing

/// The station's budget of parts in memory.
@Suite struct S3PartBufferTests {
    /// A part takes its place at its first byte and gives it back when its bytes are released,
    /// whether it was sent (its `Data` released) or dropped; its memory is kept for the next part
    /// while any part holds a place, and unmapped once none does.
    @Test func aPartHoldsAPlaceFromItsFirstByteUntilItsBytesAreReleased() throws {
        let budget = PartBudget(capacity: 2, partSize: 4096)
        let bytes = [UInt8](repeating: 7, count: 1000)
        var first = PartBuffer(budget: budget, device: "A")
        var second = PartBuffer(budget: budget, device: "A")
        #expect(budget.places(of: "A") == 0, "an empty part holds no place")
        try bytes.withUnsafeBytes { try first.append($0) }
        try bytes.withUnsafeBytes { try second.append($0) }
        #expect(first.count == 1000 && first.room == 3096)
        #expect(budget.places(of: "A") == 2 && !budget.tryTake(for: "A"))
        var data: Data? = first.data()
        #expect(data == Data(bytes))
        #expect(budget.places(of: "A") == 2, "the place went before the bytes were sent")
        data = nil
        #expect(budget.places(of: "A") == 1)
        #expect(budget.keptMappings == 1, "the sent part's memory waits for the next part")
        // The next part reuses it: its bytes are its own, not the old part's.
        var third = PartBuffer(budget: budget, device: "B")
        let other = [UInt8](repeating: 9, count: 10)
        try other.withUnsafeBytes { try third.append($0) }
        #expect(budget.keptMappings == 0)
        #expect(third.data() == Data(other))
        #expect(budget.keptMappings == 1 && budget.places(of: "B") == 0)
        _ = consume second  // dropped unsent
        #expect(budget.places(of: "A") == 0)
        #expect(budget.keptMappings == 0, "no part holds a place: the memory is unmapped")
        #expect(data == nil)
    }

    /// A device alone may use every place; once another wants places, each may take them only
    /// within its share, so a device whose parts fill slowly cannot keep the others waiting.
    @Test func placesAreSharedFairlyBetweenDevices() async throws {
        let budget = PartBudget(capacity: 6, partSize: 4096)
        for _ in 0..<5 { #expect(budget.tryTake(for: "slow")) }
        // The fast device's share is 3: one place is free now.
        #expect(budget.tryTake(for: "fast"))
        #expect(!budget.tryTake(for: "fast"), "the budget is full")
        // A waiting fast device gets the next place the slow one gives back, and the slow one,
        // over its share, takes no more while the fast one holds places.
        let taken = Task.detached { budget.take(for: "fast") }
        budget.give(for: "slow")
        await taken.value
        #expect(budget.places(of: "fast") == 2)
        budget.give(for: "slow")
        #expect(!budget.tryTake(for: "slow"), "over its share of 3")
        #expect(budget.tryTake(for: "fast") && budget.places(of: "fast") == 3)
        #expect(!budget.tryTake(for: "fast"), "at its share of 3")
        // Alone again, a device may use every place.
        for _ in 0..<3 { budget.give(for: "slow") }
        for _ in 0..<3 { budget.give(for: "fast") }
        for _ in 0..<6 { #expect(budget.tryTake(for: "fast")) }
    }
}
