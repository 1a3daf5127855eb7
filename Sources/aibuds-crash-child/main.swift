// Installs the crash reporter, describes a device, logs a few lines, then crashes in the way its
// first argument names (the crash reporter's tests run it): nil-unwrap, array-index, segv, abort,
// background-thread, or none (exits normally, printing the pending reports it was handed).
import AIBudsCrashReporter
import AIBudsLog
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: aibuds-crash-child KIND DIRECTORY\n".utf8))
    exit(64)
}
let kind = arguments[1]
let reporter = CrashReporter.shared
try reporter.install(directory: URL(fileURLWithPath: arguments[2]), appName: "crash-child", appVersion: "1.2") { report in
    print("pending \(report.path)")
}
let log = FanOutLogService(minimumLevel: .trace, destinations: [reporter.logDestination])
reporter.setDeviceState("connected, battery 81%, recording", for: "glasses-7")
log.log(.info, "app", "starting \(kind)")
log.log(.warning, "ai", device: "glasses-7", "token=abc123secret about to crash")

@inline(never)
func crash(_ kind: String) {
    switch kind {
    case "nil-unwrap":
        let value: Int? = kind.count > 1000 ? 1 : nil
        print(value!)
    case "array-index":
        let numbers = [1, 2, 3]
        print(numbers[kind.count])
    case "segv":
        let pointer = UnsafeMutablePointer<Int>(bitPattern: 8)!
        pointer.pointee = 42
    case "abort":
        abort()
    case "background-thread":
        let thread = Thread {
            let numbers = [1, 2, 3]
            print(numbers[kind.count + 10])
        }
        thread.name = "worker-crash"
        thread.start()
        Thread.sleep(forTimeInterval: 60)
    case "none":
        for report in (try? reporter.pendingReports()) ?? [] {
            try? reporter.markHandled(report)
            print("handled \(report.path)")
        }
        exit(0)
    default:
        FileHandle.standardError.write(Data("unknown kind \(kind)\n".utf8))
        exit(64)
    }
}
crash(kind)
