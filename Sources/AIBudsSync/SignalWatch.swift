import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// The one way the project watches a signal (SIGINT, SIGTERM) with a `DispatchSourceSignal`.
///
/// On Linux, libdispatch installs a handler of its own for a signal the first time a source for it
/// is registered, once per process. Setting the signal's action again afterwards (`SIG_IGN` before
/// the next source, `SIG_DFL` after cancelling one) replaces that handler, and every source of the
/// signal is silent from then on: Ctrl-C stopped reaching `aibuds demo --dashboard` after its
/// import's Ctrl-C handler was removed. So the default action is turned off only while it is still
/// the default, and never put back.
public enum SignalWatch {
    /// A resumed source for `number` whose events run `handler` on `queue`. Cancel it to stop
    /// watching; the signal then stays without its default action (it no longer ends the process).
    public static func watch(_ number: Int32, queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        var current = sigaction()
        if sigaction(number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
            _ = signal(number, SIG_IGN)
        }
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
}
