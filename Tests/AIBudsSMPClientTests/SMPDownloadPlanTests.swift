@testable import AIBudsSMPClient
import Foundation
import Testing

/// `plan.nextRequest()`, in a form `#require` can take.
private func next(_ plan: inout SMPDownloadPlan) -> SMPDownloadPlan.Request? { plan.nextRequest() }

@Suite struct SMPDownloadPlanTests {
    let file = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    /// The device's answer at `offset` with chunks of `chunk` bytes.
    func answer(_ offset: UInt64, chunk: Int) -> Data {
        file.subdata(in: Int(offset)..<min(Int(offset) + chunk, file.count))
    }

    @Test func requestsSuccessiveOffsetsSpacedByTheChunkSeen() {
        var plan = SMPDownloadPlan(size: 10_000, start: 0, first: answer(0, chunk: 900), maxAhead: 1 << 20)
        #expect(plan.takeWritable() == [answer(0, chunk: 900)])
        let requests = (0..<3).compactMap { _ in plan.nextRequest() }
        #expect(requests.map(\.offset) == [900, 1800, 2700])
        #expect(requests.map(\.end) == [1800, 2700, 3600])
    }

    @Test func writesInOrderWhateverOrderResponsesArriveIn() throws {
        var plan = SMPDownloadPlan(size: 10_000, start: 0, first: answer(0, chunk: 1000), maxAhead: 1 << 20)
        var out = Data(plan.takeWritable().joined())
        var requests: [SMPDownloadPlan.Request] = []
        while let request = plan.nextRequest() { requests.append(request) }
        #expect(requests.count == 9)
        for request in requests.reversed() {
            try plan.receive(request, offset: request.offset, data: answer(request.offset, chunk: 1000))
            out.append(contentsOf: plan.takeWritable().joined())
            #expect(out.count == (request.offset == 1000 ? 10_000 : 1000), "nothing is written until 1000 arrives")
        }
        #expect(plan.isComplete)
        #expect(out == file)
    }

    @Test func aShortResponseLeavesAGapThatIsRequestedAgain() throws {
        var plan = SMPDownloadPlan(size: 10_000, start: 0, first: answer(0, chunk: 1000), maxAhead: 1 << 20)
        var out = Data(plan.takeWritable().joined())
        let a = try #require(next(&plan))
        let b = try #require(next(&plan))
        // The device's chunk shrinks to 998 bytes (a longer offset field, say).
        try plan.receive(a, offset: a.offset, data: answer(a.offset, chunk: 998))
        try plan.receive(b, offset: b.offset, data: answer(b.offset, chunk: 998))
        out.append(contentsOf: plan.takeWritable().joined())
        #expect(out.count == 1998)
        let gap = try #require(next(&plan))
        #expect(gap == .init(offset: 1998, end: 2000))
        let gap2 = try #require(next(&plan))
        #expect(gap2 == .init(offset: 2998, end: 3000))
        #expect(plan.nextRequest() == .init(offset: 3000, end: 3998), "new requests use the new chunk size")
        // The gap's answer is a full chunk that overlaps what follows; the overlap is written once.
        try plan.receive(gap, offset: 1998, data: answer(1998, chunk: 998))
        out.append(contentsOf: plan.takeWritable().joined())
        #expect(out == file.prefix(2998))
        try plan.receive(gap2, offset: 2998, data: answer(2998, chunk: 998))
        out.append(contentsOf: plan.takeWritable().joined())
        #expect(out == file.prefix(3996))
    }

    @Test func aResumedPlanStartsAtItsOffset() throws {
        var plan = SMPDownloadPlan(size: 10_000, start: 9_500, first: answer(9_500, chunk: 300), maxAhead: 1 << 20)
        #expect(plan.takeWritable() == [answer(9_500, chunk: 300)])
        let last = try #require(next(&plan))
        #expect(last == .init(offset: 9_800, end: 10_000))
        #expect(plan.nextRequest() == nil)
        try plan.receive(last, offset: 9_800, data: answer(9_800, chunk: 300))
        #expect(plan.takeWritable() == [file.suffix(200)])
        #expect(plan.isComplete)
    }

    @Test func requestsStayWithinTheReorderLimit() {
        var plan = SMPDownloadPlan(size: 10_000, start: 0, first: answer(0, chunk: 1000), maxAhead: 3000)
        _ = plan.takeWritable()
        var requests: [SMPDownloadPlan.Request] = []
        while let request = plan.nextRequest() { requests.append(request) }
        #expect(requests.map(\.offset) == [1000, 2000, 3000])
    }

    @Test func misplacedAndEmptyResponsesAreProblems() throws {
        var plan = SMPDownloadPlan(size: 10_000, start: 0, first: answer(0, chunk: 1000), maxAhead: 1 << 20)
        let request = try #require(next(&plan))
        #expect(throws: SMPDownloadPlan.Problem.wrongOffset(requested: 1000, answered: 0)) {
            try plan.receive(request, offset: 0, data: answer(0, chunk: 10))
        }
        #expect(throws: SMPDownloadPlan.Problem.noData(offset: 1000)) {
            try plan.receive(request, offset: 1000, data: Data())
        }
    }
}
