/// Every subcommand of `aibuds`, in the order `aibuds --help` lists them. Add a command in one line.
let registeredCommands: [any CLICommand.Type] = [
    VersionCommand.self,
    EmulatorCommand.self,
    ScanCommand.self,
    InfoCommand.self,
    DevicesCommand.self,
    BenchSMPCommand.self,
    MediaListCommand.self,
    MediaImportCommand.self,
    MediaDeleteCommand.self,
    DemoCommand.self,
]
