import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// Stock `curl` against the data plane: what any HTTP client sees.
@Suite("Data plane with stock curl", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
struct DataPlaneCurlTests {
    /// Runs curl (waiting on a thread of its own); returns its standard output and standard error.
    private func curl(_ arguments: [String]) async throws -> (out: Data, err: String) {
        let result = try await runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "10"] + arguments)
        return (result.output, result.err)
    }

    private func status(_ output: Data) -> String {
        String(decoding: output, as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
    }

    @Test func curlGetsRangesHeadsAndErrors() async throws {
        let fixture = try DataPlaneFixture()
        let content = DataPlaneFixture.bytes(100_000, seed: 7)
        try fixture.add("VID 0001.mp4", content)
        let url = fixture.baseURL + "/media/VID%200001.mp4"
        let auth = ["-H", "Authorization: Bearer tok3n"]

        #expect(try await curl(auth + [url]).out == Data(content))
        #expect(try await curl(auth + ["-r", "1000-1999", url]).out == Data(content[1000..<2000]))

        let unauthorized = try await curl(["-i", url]).out
        #expect(status(unauthorized) == "HTTP/1.1 401 Unauthorized")
        #expect(String(decoding: unauthorized, as: UTF8.self).hasSuffix("\r\n\r\n"))

        let unsatisfiable = String(decoding: try await curl(auth + ["-i", "-r", "100000-", url]).out, as: UTF8.self)
        #expect(unsatisfiable.hasPrefix("HTTP/1.1 416"))
        #expect(unsatisfiable.contains("Content-Range: bytes */100000"))

        let head = String(decoding: try await curl(auth + ["-I", url]).out, as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200 OK"))
        #expect(head.contains("Content-Length: 100000"))
        #expect(head.contains("Accept-Ranges: bytes"))
    }

    @Test func curlReusesTheConnectionAcrossFiles() async throws {
        let fixture = try DataPlaneFixture()
        try fixture.add("a", Array("AAAA".utf8))
        try fixture.add("b", Array("BB".utf8))
        let result = try await curl(["-v", "-H", "Authorization: Bearer tok3n", fixture.baseURL + "/media/a", fixture.baseURL + "/media/b"])
        #expect(result.out == Data("AAAABB".utf8))
        #expect(result.err.contains("Re-using existing connection"))
        #expect(fixture.server.statistics.connections == 1)
    }

    @Test func curlResumesWithContinueAt() async throws {
        let fixture = try DataPlaneFixture()
        let content = DataPlaneFixture.bytes(50_000, seed: 8)
        try fixture.add("f", content)
        let partial = fixture.directory.appendingPathComponent("curl-out")
        try Data(content[0..<20_000]).write(to: partial)
        _ = try await curl(["-H", "Authorization: Bearer tok3n", "-C", "-", "-o", partial.path, fixture.baseURL + "/media/f"])
        #expect(try Data(contentsOf: partial) == Data(content))
        #expect(fixture.server.statistics.bodyBytesSent == 30_000)
    }
}
