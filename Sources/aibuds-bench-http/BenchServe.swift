import AIBudsEmulator
import AIBudsNet
import Foundation

/// `serve --dir D --token T [--profile unlimited|wifi] [--port P]`: serves a folder until killed.
enum BenchServe {
    static func run(_ options: Options) throws -> Never {
        // The runner's threads block SIGTERM, and a child inherits that: take it back so that
        // the runner's terminate() ends this process.
        var signals = sigset_t()
        sigemptyset(&signals)
        pthread_sigmask(SIG_SETMASK, &signals, nil)
        let profile = options.value("--profile") ?? "unlimited"
        guard let shaping = DataPlaneShaping(profileName: profile) else { throw BenchFailure("unknown profile \(profile)") }
        let server = DataPlaneServer(
            catalog: DirectoryDataPlaneCatalog(directory: try options.require("--dir")), token: options.value("--token") ?? "T",
            address: SocketAddress(host: "127.0.0.1", port: UInt16(try options.int("--port", default: 0))), shaping: shaping)
        let url = try server.start()
        say("data on \(url) token \(server.token)")
        while true { sleep(1000) }
    }
}
