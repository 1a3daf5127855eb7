import AIBudsEmulator
import AIBudsNet
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let server = DataPlaneServer(
    catalog: DirectoryDataPlaneCatalog(directory: option("--dir") ?? "."), token: option("--token") ?? "T",
    address: SocketAddress(host: "127.0.0.1", port: UInt16(option("--port") ?? "0") ?? 0),
    shaping: DataPlaneShaping(profileName: option("--profile") ?? "unlimited") ?? .unlimited)
let url = try server.start()
FileHandle.standardOutput.write(Data("data on \(url) token \(server.token)\n".utf8))
while true { sleep(1000) }
