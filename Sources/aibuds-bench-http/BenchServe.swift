import AIBudsEmulator
import AIBudsNet
import Foundation

/// `serve --dir D --token T [--profile unlimited|wifi] [--port P]`: serves a folder until killed.
enum BenchServe {
    static func run(_ options: Options) throws -> Never {
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
