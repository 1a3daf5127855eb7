import AIBudsLog
import Foundation
import Testing

/// The package's one version is semantic and is the newest release CHANGELOG.md describes.
struct VersionTests {
    @Test func theVersionIsSemanticAndNamesTheNewestChangelogEntry() throws {
        let parts = AIBudsVersion.semantic.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(AIBudsVersion.semantic)")
        #expect(AIBudsVersion.build == AIBudsVersion.releaseDate.replacingOccurrences(of: "-", with: ""))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let releases = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") && !$0.hasPrefix("## Unreleased") && !$0.hasPrefix("## Before") }
        #expect(releases.first == "## \(AIBudsVersion.semantic) — \(AIBudsVersion.releaseDate)", "newest entry: \(releases.first ?? "none")")
    }
}
