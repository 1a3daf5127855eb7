import Dispatch
import Foundation
import Testing
@testable import TopStepComKit

@Suite struct TopStepDeliveryTests {
    @Test func deliversExactlyOnceOnTheMainQueueUnderRaces() async {
        let calls = Recorder<Int>()
        let once = MainQueueOnce<Int> { value in
            dispatchPrecondition(condition: .onQueue(.main))
            calls.append(value)
        }
        DispatchQueue.concurrentPerform(iterations: 64) { once.deliver($0) }
        #expect(once.isDelivered)
        await drainMainQueue()
        #expect(calls.values.count == 1)
    }

    @Test func nilCallbackStillCountsAsDelivered() {
        let once = MainQueueOnce<Int>(nil)
        #expect(once.deliver(1))
        #expect(!once.deliver(2))
    }

    @Test func progressRisesMonotonicallyWithinBoundsAndStopsAtFinish() async {
        let calls = Recorder<Double>()
        let reporter = ProgressReporter({ value in
            dispatchPrecondition(condition: .onQueue(.main))
            calls.append(value)
        }, step: 1)
        reporter.report(done: 0, of: 1000)
        reporter.report(done: 5, of: 1000)       // +0.5: below the step, dropped
        reporter.report(done: 500, of: 1000)
        reporter.report(done: 400, of: 1000)     // lower: dropped
        reporter.report(percent: 250)            // clamped to 100
        reporter.report(percent: -3)
        reporter.finish()
        reporter.report(percent: 100)
        await drainMainQueue()
        #expect(calls.values == [0, 50, 100])
    }

    @Test func emptyTotalIsComplete() async {
        let calls = Recorder<Double>()
        let reporter = ProgressReporter({ value in calls.append(value) })
        reporter.report(done: 0, of: 0)
        await drainMainQueue()
        #expect(calls.values == [100])
    }
}
