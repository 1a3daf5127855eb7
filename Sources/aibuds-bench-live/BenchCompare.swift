import AIBudsProcess
import AIBudsSync
import AIBudsWire
import Foundation

/// The comparison: a camera process per format, then each client in turn for the same seconds.
enum BenchCompare {
    struct Row {
        var client: String
        var transport: String
        var figures: ClientFigures
    }

    static func run(seconds: Double) throws {
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var rows: [Row] = []
        for format in ["rtsp", "jpeg"] {
            let camera = try ChildProcess(me, ["serve", format], errors: .discard)
            defer { camera.kill() }
            let url = try firstLine(of: camera)
            let transports = format == "rtsp" ? ["tcp", "udp"] : ["http"]
            for transport in transports {
                let mode = transport == "http" ? "tcp" : transport
                rows.append(Row(client: "aibuds (libavformat)", transport: "\(format)/\(transport)",
                                figures: try ours(me, url: url, transport: mode, seconds: seconds)))
                var ffmpeg = ["-loglevel", "error", "-fflags", "nobuffer", "-flags", "low_delay", "-probesize", "32", "-analyzeduration", "0"]
                ffmpeg += format == "rtsp" ? ["-rtsp_transport", mode, "-i", url] : ["-f", "mpjpeg", "-i", url]
                ffmpeg += ["-an", "-f", "rawvideo", "-pix_fmt", "gray", "-"]
                rows.append(Row(client: "ffmpeg", transport: "\(format)/\(transport)",
                                figures: try external("/usr/bin/ffmpeg", ffmpeg, seconds: seconds)))
                if format == "rtsp" {
                    let gst = ["-q", "rtspsrc", "location=\(url)", "latency=0", "protocols=\(mode)", "!", "rtph264depay", "!",
                               "h264parse", "!", "avdec_h264", "!", "videoconvert", "!", "video/x-raw,format=GRAY8", "!",
                               "fdsink", "fd=1", "sync=false"]
                    rows.append(Row(client: "GStreamer (rtspsrc, avdec_h264)", transport: "\(format)/\(transport)",
                                    figures: try external("/usr/bin/gst-launch-1.0", gst, seconds: seconds)))
                }
            }
        }
        print(table(rows, seconds: seconds))
    }

    /// The camera's URL, the first line it prints.
    private static func firstLine(of camera: ChildProcess) throws -> String {
        var line = Data()
        while true {
            let byte = camera.standardOutput!.readData(ofLength: 1)
            guard let first = byte.first else { throw BenchError("the camera printed no URL") }
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
    }

    /// The SDK's puller, in a process of its own that reports its own figures.
    private static func ours(_ me: String, url: String, transport: String, seconds: Double) throws -> ClientFigures {
        let child = try ChildProcess(me, ["pull", url, transport, "\(seconds)"], errors: .discard)
        let output = child.standardOutput!.readDataToEndOfFile()
        _ = child.waitUntilExit()
        return try JSONDecoder().decode(ClientFigures.self, from: output)
    }

    /// A player that writes 8-bit grey pictures to its standard output: each picture's stamp is
    /// read as it arrives; CPU and memory come from /proc.
    private static func external(_ program: String, _ arguments: [String], seconds: Double) throws -> ClientFigures {
        let child = try ChildProcess(program, arguments, errors: .discard)
        let pid = "\(child.pid)"
        let counting = Locked(false)
        let figures = Locked((ClientFigures(), UInt32?.none))
        let descriptor = child.standardOutput!.fileDescriptor
        let reader = Thread {
            let size = BenchStream.width * BenchStream.height
            var picture = [UInt8](repeating: 0, count: size)
            while true {
                var filled = 0
                while filled < size {
                    let count = picture.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, size - filled) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return }
                    filled += count
                }
                let now = wallMicroseconds()
                guard counting.withLock({ $0 }) else { continue }
                let stamp = picture.withUnsafeBufferPointer {
                    LiveFrameStampPattern.read(luma: $0.baseAddress!, stride: BenchStream.width, width: BenchStream.width, height: BenchStream.height)
                }
                if let stamp { figures.withLock { $0.0.add(stamp, now: now, last: &$0.1) } }
            }
        }
        reader.start()
        Thread.sleep(forTimeInterval: BenchStream.warmUp)
        let cpuBefore = ProcessUsage.cpuSeconds(pid)
        counting.withLock { $0 = true }
        Thread.sleep(forTimeInterval: seconds)
        counting.withLock { $0 = false }
        var result = figures.withLock { $0.0 }
        result.cpu = (ProcessUsage.cpuSeconds(pid) - cpuBefore) / seconds
        result.peakMiB = ProcessUsage.peakMiB(pid)
        child.kill()
        _ = child.waitUntilExit()
        return result
    }

    private static func table(_ rows: [Row], seconds: Double) -> String {
        var lines = [
            "\(BenchStream.width)×\(BenchStream.height) at \(BenchStream.fps) fps, \(BenchStream.bitrateKbps) kbit/s, \(Int(seconds)) s per client after \(Int(BenchStream.warmUp)) s of warm-up; latency is capture to decoded picture (the burned-in stamp)",
            "",
            "| client | stream | frames | missing | latency p50 | p95 | CPU (one core = 100 %) | peak memory |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let f = row.figures
            lines.append(String(format: "| %@ | %@ | %d | %d | %.1f ms | %.1f ms | %.1f %% | %.0f MiB |", row.client, row.transport,
                                f.frames, f.missing, f.percentile(0.5), f.percentile(0.95), f.cpu * 100, f.peakMiB))
        }
        lines.append("")
        for stream in Set(rows.map(\.transport)).sorted() {
            guard let mine = rows.first(where: { $0.transport == stream && $0.client.hasPrefix("aibuds") })?.figures,
                let reference = rows.first(where: { $0.transport == stream && $0.client == "ffmpeg" })?.figures
            else { continue }
            lines.append(String(format: "%@: aibuds/ffmpeg latency p50 %.2f×, CPU %.2f×", stream,
                                mine.percentile(0.5) / reference.percentile(0.5), mine.cpu / max(reference.cpu, 1e-9)))
        }
        return lines.joined(separator: "\n")
    }
}
