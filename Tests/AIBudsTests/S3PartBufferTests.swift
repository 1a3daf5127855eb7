@testable import AIBudsS3
import Foundation
import Testing

/// The station's budget of parts in memory: a part takes its place at its first byte and gives it
/// back when it is unmapped, whether it was sent (its `Data` released) or dropped.
@Suite struct S3PartBufferTests {
    @Test func aPartHoldsAPlaceFromItsFirstByteUntilItsBytesAreReleased() throws {
        let budget = DispatchSemaphore(value: 2)
        let bytes = [UInt8](repeating: 7, count: 1000)
        var first = PartBuffer(capacity: 4096, budget: budget)
        var second = PartBuffer(capacity: 4096, budget: budget)
        _ = second.room  // an empty part holds no place
        try bytes.withUnsafeBytes { try first.append($0) }
        try bytes.withUnsafeBytes { try second.append($0) }
        #expect(first.count == 1000 && first.room == 3096)
        // Both places are taken.
        #expect(budget.wait(timeout: .now()) == .timedOut)
        var data: Data? = first.data()
        #expect(data == Data(bytes))
        #expect(budget.wait(timeout: .now()) == .timedOut, "the place went before the bytes were sent")
        data = nil
        #expect(budget.wait(timeout: .now()) == .success)
        budget.signal()
        _ = consume second  // dropped unsent
        #expect(budget.wait(timeout: .now()) == .success)
        #expect(budget.wait(timeout: .now()) == .success)
        #expect(data == nil)
        // libdispatch refuses to free a semaphore below its starting value.
        budget.signal()
        budget.signal()
    }
}
