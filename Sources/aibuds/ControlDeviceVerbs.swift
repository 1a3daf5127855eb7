import AIBuds
import AIBudsFoundation
import Foundation

/// The basic-feature verbs of `aibuds control`: the media storage (read, format) and finding each
/// other (the device's signal, the wearer's request to find the phone).
enum ControlDeviceVerbs {
    typealias Action = ControlVerbs.Action

    static let capabilities: Set<String> = ["storage", "find"]

    static func parse(_ capability: String, _ verb: String?, _ args: [String]) throws -> Action {
        guard args.isEmpty else { throw CommandFailure.usage("'\(capability) \(verb ?? "")' takes no argument") }
        func unknownVerb() -> CommandFailure {
            CommandFailure.usage("'\(capability)' has no verb '\(verb ?? "")' (aibuds control --help)")
        }
        switch capability {
        case "storage":
            guard verb == nil || verb == "format" else { throw unknownVerb() }
            let format = verb == "format"
            return { device in
                let info = try ControlVerbs.api(device, (any DeviceInfoAPI).self, "storage information")
                var fields = Fields()
                if format {
                    let common = try ControlVerbs.api(device, (any DeviceCommonAPI).self, "media storage format")
                    fields.add("deleted", .number(try await common.formatMediaStorage()))
                }
                let storage = try await info.requestQueryStorageInfo()
                let count = try await info.requestQueryMediaCountInfo()
                fields.add("used_mb", .number(storage.usedSpaceInMB.intValue))
                fields.add("free_mb", .number(storage.freeSpaceInMB.intValue))
                fields.add("photos", .number(count.photoCount.intValue))
                fields.add("videos", .number(count.videoCount.intValue))
                fields.add("audios", .number(count.audioCount.intValue))
                return fields
            }
        case "find":
            guard verb == nil || ["on", "off", "report-found"].contains(verb!) else { throw unknownVerb() }
            return { [verb] device in
                let find = try ControlVerbs.api(device, (any DeviceFindAPI).self, "find")
                switch verb {
                case "on"?: try await find.findDevice()
                case "off"?: try await find.stopFindDevice()
                case "report-found"?: try await find.reportPhoneFound()
                default: break
                }
                var fields = Fields()
                fields.add("finding_phone", .flag(find.isFindingPhone))
                return fields
            }
        default:
            throw CommandFailure.usage("unknown capability '\(capability)' (aibuds control --help)")
        }
    }
}
