import AIBudsLog

/// `aibuds version` (and `aibuds --version`): the SDK's semantic version, build and date.
struct VersionCommand: CLICommand {
    static let path = ["version"]
    static let abstract = "Print the version of aibuds and the SDK."
    static let help = """
        usage: aibuds version

        Prints the SDK's semantic version (CHANGELOG.md says what each version changed), its
        build and release date, for example: aibuds 0.9.0 (build 20261202, 2026-12-02).
        """

    init(_ arguments: inout Arguments) throws {
        try arguments.finish()
    }

    func run() async throws -> ExitCode {
        CLI.say("aibuds \(AIBudsVersion.semantic) (build \(AIBudsVersion.build), \(AIBudsVersion.releaseDate))")
        return .ok
    }
}
