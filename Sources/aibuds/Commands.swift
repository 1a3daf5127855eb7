/// Every subcommand of `aibuds`, in the order `aibuds --help` lists them. Add a command in one line.
let registeredCommands: [any CLICommand.Type] = [
    DemoCommand.self,
    VersionCommand.self,
    EmulatorCommand.self,
    ScanCommand.self,
    InfoCommand.self,
    DevicesCommand.self,
    MediaListCommand.self,
    MediaImportCommand.self,
    MediaDeleteCommand.self,
    StabilizeCommand.self,
    RecordingsListCommand.self,
    RecordingsDownloadCommand.self,
    RecordingsDeleteCommand.self,
    RecordingsWatchCommand.self,
    BenchSMPCommand.self,
    RecordingsBenchCommand.self,
]
