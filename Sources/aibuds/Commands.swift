/// Every subcommand of `aibuds`, in the order `aibuds --help` lists them. Add a command in one line.
let registeredCommands: [any CLICommand.Type] = [
    VersionCommand.self,
    EmulatorCommand.self,
    BenchSMPCommand.self,
    ScanCommand.self,
    InfoCommand.self,
    DevicesCommand.self,
    RecordingsListCommand.self, RecordingsDownloadCommand.self, RecordingsDeleteCommand.self, RecordingsWatchCommand.self, RecordingsBenchCommand.self,
]
