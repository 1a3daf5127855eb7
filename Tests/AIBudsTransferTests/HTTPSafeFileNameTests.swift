import AIBudsTransfer
import Testing

@Suite("Safe local names for hostile device file names")
struct HTTPSafeFileNameTests {
    @Test(arguments: [
        ("IMG_0001.JPG", "IMG_0001.JPG"),
        ("../x", "_._x"),
        ("/etc/passwd", "_etc_passwd"),
        ("a\\b", "a_b"),
        (".", "_"),
        ("..", "_."),
        (".partial", "_partial"),
        ("x\u{0}y\u{1}z\u{7F}", "x_y_z_"),
        ("evil\u{202E}gpj.exe", "evil_gpj.exe"),
        ("line\nbreak", "line_break"),
        ("e\u{301}.mp4", "\u{E9}.mp4"),
    ])
    func namesBecomeSafe(deviceName: String, expected: String) throws {
        let safe = try SafeFileName.make(from: deviceName)
        #expect(safe == expected)
        #expect(SafeFileName.isSafe(safe))
        #expect(!safe.contains("/") && !safe.hasPrefix("."))
    }

    @Test func emptyNamesAreAnError() {
        #expect { try SafeFileName.make(from: "") } throws: { ($0 as? TransferError)?.code == .unsafeFileName }
    }

    @Test func longNamesAreCutKeepingExtensionAndDistinctness() throws {
        let a = String(repeating: "a", count: 4096) + "1.mp4"
        let b = String(repeating: "a", count: 4096) + "2.mp4"
        let safeA = try SafeFileName.make(from: a)
        let safeB = try SafeFileName.make(from: b)
        #expect(safeA.utf8.count <= SafeFileName.maxUTF8Length)
        #expect(safeA.hasSuffix(".mp4"))
        #expect(safeA != safeB)
        let wide = String(repeating: "日", count: 2000)
        let safeWide = try SafeFileName.make(from: wide)
        #expect(safeWide.utf8.count <= SafeFileName.maxUTF8Length)
        #expect(safeWide.hasPrefix("日日"))
    }

    @Test func aNameAlreadySafeKeepsItselfWhereverItIsInTheBatch() throws {
        // Device order is byte order: the NFD twin (`e` + U+0301) comes before the NFC one.
        let assigned = SafeFileName.assign(["cafe\u{301}.jpg", "caf\u{E9}.jpg", "a\u{200D}b.jpg", "a_b.jpg"]).map { try? $0.get() }
        #expect(assigned.map { $0.map { Array($0.utf8) } } == [
            Array("caf\u{E9} (2).jpg".utf8), Array("caf\u{E9}.jpg".utf8), Array("a_b (2).jpg".utf8), Array("a_b.jpg".utf8),
        ])
    }

    @Test func batchesGetDistinctNamesAcrossCaseAndNormalization() throws {
        let names = ["Clip.MP4", "clip.mp4", "caf\u{E9}.jpg", "cafe\u{301}.jpg", "a/b", "a_b", "", "x"]
        let assigned = SafeFileName.assign(names)
        #expect(assigned.count == names.count)
        let ok = assigned.compactMap { try? $0.get() }
        // A name already safe keeps itself: `a_b` stays, `a/b` (safe form `a_b`) is numbered.
        #expect(ok == ["Clip.MP4", "clip (2).mp4", "caf\u{E9}.jpg", "caf\u{E9} (2).jpg", "a_b (2)", "a_b", "x"])
        guard case .failure(let error) = assigned[6] else {
            Issue.record("an empty name must fail")
            return
        }
        #expect(error.code == .unsafeFileName)
        #expect(Set(ok.map { $0.lowercased() }).count == ok.count)
    }

    @Test func isSafeAcceptsOnlyWhatMakeKeeps() {
        for safe in ["ok.jpg", "A b-c_(2).MP4", "caf\u{E9}.jpg", "日本.mp4"] { #expect(SafeFileName.isSafe(safe), "\(safe)") }
        for unsafe in ["", "a/b", "a\\b", ".x", "..", "x\u{0}", "cafe\u{301}.jpg", String(repeating: "a", count: 201)] {
            #expect(!SafeFileName.isSafe(unsafe), "\(unsafe)")
        }
    }
}
