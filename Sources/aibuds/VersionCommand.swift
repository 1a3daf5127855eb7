/// `aibuds version`: prints the SDK version.
struct VersionCommand: CLICommand {
    static let path = ["version"]
    static let abstract = "Print the version of aibuds and the SDK."
    static let help = """
        usage: aibuds version

        Prints the version of aibuds and the SDK.
        """

    init(_ arguments: inout Arguments) throws {}

    func run() async throws -> ExitCode {
        CLI.say("aibuds 0.1.0")
        return .ok
    }
}
