import AIBudsLog
import Foundation

/// Logs one message at `info` level through `TopStepComKit.sharedInstance.logService`.
///
/// With arguments, `format` is a `String(format:)` format (`TSLog("Download: %.1f%%", progress)`);
/// without, it is logged as it is. Nothing is printed unless the app sets a log service.
public func TSLog(_ format: String, _ arguments: any CVarArg...) {
    let service = TopStepComKit.sharedInstance.logService
    guard service.minimumLevel <= .info else { return }
    let message = arguments.isEmpty ? format : String(format: format, arguments: arguments)
    service.log(.info, "app", message)
}
