import AIBudsSync
import Foundation

/// Where the default log service writes: the four destinations of the vendor's log module.
public enum LogOutput: Hashable, Sendable {
    /// Standard error, one formatted line per record.
    case console
    /// The system log: on Linux the systemd journal, through the plugin registered with
    /// ``AIBudsLogSDK/setOsLoggerPlugin(_:)`` (module AIBudsJournal's `JournaldLogDestination`).
    case oslogger
    /// A size-rotated text file at this path (``RotatingFileLogDestination``).
    case file(String)
    /// The production store registered with ``AIBudsLogSDK/setXLFacilityPlugin(_:)`` (module
    /// AIBudsXLFacility): queried, exported and purged of expired records.
    case xlfacility
}

/// The errors of configuring the default log service.
public enum LogSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An output needs a plugin no one registered: `oslogger` or `xlfacility`.
    case pluginNotRegistered(LogOutput)

    /// Says which output lacks what.
    public var description: String {
        switch self {
        case .pluginNotRegistered(.oslogger):
            "the oslogger output needs a plugin: AIBudsLogSDK.setOsLoggerPlugin(JournaldLogDestination())"
        case .pluginNotRegistered(let output):
            "the \(output) output needs a plugin: AIBudsLogSDK.setXLFacilityPlugin(XLFacility(...))"
        }
    }
}

/// The SDK's default log service and its outputs: one ``FanOutLogService`` that every module can
/// log through, writing to the destinations chosen with ``configure(outputs:minimumLevel:)``.
///
/// The system log and the production store are plugins, so that an app that logs to the console
/// links neither libsystemd nor SQLite: register them with ``setOsLoggerPlugin(_:)`` and
/// ``setXLFacilityPlugin(_:)`` (`AIBudsAllInOne.initialize` registers both).
public enum AIBudsLogSDK {
    private struct Plugins {
        var osLogger: (any LogDestination)?
        var xlFacility: (any LogService)?
    }

    private static let plugins = Locked(Plugins())

    /// The default log service (level `.info`, no destination until configured).
    public static let logService = FanOutLogService()

    /// Registers the production log plugin (an `XLFacility` of module AIBudsXLFacility, or any
    /// ``LogService`` of the app's) behind the ``LogOutput/xlfacility`` output.
    public static func setXLFacilityPlugin(_ plugin: any LogService) {
        plugins.withLock { $0.xlFacility = plugin }
    }

    /// The plugin behind ``LogOutput/xlfacility``, if one is registered.
    public static var xlFacilityPlugin: (any LogService)? { plugins.withLock { $0.xlFacility } }

    /// Registers the system log's destination behind ``LogOutput/oslogger`` (on Linux,
    /// `JournaldLogDestination` of module AIBudsJournal).
    public static func setOsLoggerPlugin(_ plugin: any LogDestination) {
        plugins.withLock { $0.osLogger = plugin }
    }

    /// Forgets the registered plugins (tests).
    package static func resetPluginsForTesting() {
        plugins.withLock { $0 = Plugins() }
    }

    /// Makes ``logService`` write to exactly `outputs` from now on, recording `minimumLevel` and
    /// above. Throws, changing nothing, when an output's plugin is missing.
    public static func configure(outputs: [LogOutput], minimumLevel: LogLevel = .info) throws {
        let registered = plugins.withLock { $0 }
        var destinations: [any LogDestination] = []
        for output in outputs {
            switch output {
            case .console:
                destinations.append(ConsoleLogDestination())
            case .oslogger:
                guard let osLogger = registered.osLogger else { throw LogSetupError.pluginNotRegistered(output) }
                destinations.append(osLogger)
            case .file(let path):
                // Created on the first write; a failure to write is counted by the destination.
                destinations.append(RotatingFileLogDestination(fileURL: URL(fileURLWithPath: path)))
            case .xlfacility:
                guard let service = registered.xlFacility else { throw LogSetupError.pluginNotRegistered(output) }
                destinations.append(ServiceDestination(service: service))
            }
        }
        logService.replaceDestinations(destinations)
        logService.minimumLevel = minimumLevel
    }
}

/// A log service used as a destination: records reach it already filtered and redacted.
private struct ServiceDestination: LogDestination {
    let service: any LogService
    func write(_ record: LogRecord) {
        if service.isLogging(record.level) { service.log(record) }
    }
}
