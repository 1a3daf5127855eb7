import Foundation

/// The HTTP data-plane benchmark: `aibuds-bench-http run --work DIR` measures everything;
/// the other subcommands are its parts.
let arguments = Array(CommandLine.arguments.dropFirst())
let options = Options(arguments: Array(arguments.dropFirst()))
do {
    switch arguments.first {
    case "prepare": try BenchPrepare.run(options)
    case "serve": try BenchServe.run(options)
    case "fetch": try await BenchFetch.run(options)
    case "faults": try await BenchFaults.run(options)
    case "run": try await BenchRun.run(options)
    default:
        FileHandle.standardError.write(Data("usage: aibuds-bench-http run|prepare|serve|fetch|faults [options]\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("aibuds-bench-http: \(error)\n".utf8))
    exit(1)
}
