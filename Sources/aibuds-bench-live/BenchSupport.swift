import AIBudsWire
import Foundation

/// A failure of the benchmark, with its reason.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The stream every client reads: 640×360 at 30 fps, 2,000 kbit/s.
enum BenchStream {
    static let width = 640
    static let height = 360
    static let fps = 30
    static let bitrateKbps = 2_000
    /// Seconds each client runs before its figures count (connection, probing, first key frame).
    static let warmUp = 2.0
}

/// Microseconds since 1970 on the wall clock: the camera stamps its frames on the same clock.
func wallMicroseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1_000
}

/// What one client measured after its warm-up.
struct ClientFigures: Codable {
    /// Frames whose burned-in stamp was read.
    var frames = 0
    /// Frame numbers missing between the first and the last counted.
    var missing = 0
    /// Capture-to-picture latency of each counted frame, in milliseconds.
    var latencies: [Double] = []
    /// CPU seconds per wall second after the warm-up (1.0 is one core).
    var cpu = 0.0
    /// Peak resident memory, in MiB.
    var peakMiB = 0.0

    /// Counts a frame read at `now` with `stamp`.
    mutating func add(_ stamp: LiveFrameStamp, now: UInt64, last: inout UInt32?) {
        latencies.append(Double(Int64(now) - Int64(stamp.captureMicroseconds)) / 1_000)
        frames += 1
        if let previous = last, stamp.frameNumber > previous + 1 { missing += Int(stamp.frameNumber - previous - 1) }
        last = stamp.frameNumber
    }

    func percentile(_ p: Double) -> Double {
        guard !latencies.isEmpty else { return .nan }
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
    }
}

/// CPU seconds used so far and peak resident memory of process `pid`, from /proc.
enum ProcessUsage {
    static func cpuSeconds(_ pid: String) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 0, utime 11, stime 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func peakMiB(_ pid: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib / 1_024
    }
}
