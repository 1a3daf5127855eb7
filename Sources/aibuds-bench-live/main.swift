import Foundation

// aibuds-bench-live: glass-to-glass latency, CPU and memory of pulling the emulated camera's
// live stream, the SDK's puller against ffmpeg and GStreamer reading the same URL, in one run.
//
//   aibuds-bench-live [--seconds N]             the comparison (scripts/bench-live.sh)
//   aibuds-bench-live serve rtsp|jpeg           a camera; prints its URL, runs until killed
//   aibuds-bench-live pull URL tcp|udp SECONDS  the SDK's puller; prints its figures as JSON
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "serve": try BenchServe.run(format: arguments.dropFirst().first ?? "rtsp")
    case "pull":
        guard arguments.count == 4, let seconds = Double(arguments[3]) else { throw BenchError("usage: pull URL tcp|udp SECONDS") }
        try BenchPull.run(url: arguments[1], transport: arguments[2], seconds: seconds)
    default:
        var seconds = 10.0
        if let index = arguments.firstIndex(of: "--seconds"), index + 1 < arguments.count, let value = Double(arguments[index + 1]) {
            seconds = value
        }
        try BenchCompare.run(seconds: seconds)
    }
} catch {
    FileHandle.standardError.write(Data("aibuds-bench-live: \(error)\n".utf8))
    exit(1)
}
