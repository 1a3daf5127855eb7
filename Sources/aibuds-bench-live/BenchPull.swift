import AIBudsLiveStream
import AIBudsSync
import Foundation

/// The SDK's puller in a process of its own: decodes every frame, reads its burned-in stamp as a
/// player's picture would carry it, and prints its figures as one JSON line.
enum BenchPull {
    static func run(url: String, transport: String, seconds: Double) throws {
        guard let address = URL(string: url), let mode = LiveStreamTransport(rawValue: transport) else {
            throw BenchError("pull takes a URL and tcp or udp")
        }
        let puller = try LiveStreamPuller(url: address, configuration: .init(transport: mode))
        let counting = Locked(false)
        let figures = Locked((ClientFigures(), UInt32?.none))
        puller.onFrame { frame in
            let now = wallMicroseconds()
            guard counting.withLock({ $0 }), let stamp = frame.burnedInStamp else { return }
            figures.withLock { $0.0.add(stamp, now: now, last: &$0.1) }
        }
        puller.start()
        Thread.sleep(forTimeInterval: BenchStream.warmUp)
        let cpuBefore = ProcessUsage.cpuSeconds("self")
        counting.withLock { $0 = true }
        Thread.sleep(forTimeInterval: seconds)
        counting.withLock { $0 = false }
        var result = figures.withLock { $0.0 }
        result.cpu = (ProcessUsage.cpuSeconds("self") - cpuBefore) / seconds
        result.peakMiB = ProcessUsage.peakMiB("self")
        puller.stop()
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }
}
