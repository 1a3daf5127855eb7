@testable import AIBudsEmulator
import AIBudsHTTPWire
import Testing

@Suite("Data plane routing as a pure function")
struct DataPlaneResponderTests {
    let catalog = DictionaryDataPlaneCatalog([
        "a.jpg": DataPlaneFile(id: "1", size: 100, etag: "\"1-100-1\"", path: "/nonexistent"),
        "empty": DataPlaneFile(id: "2", size: 0, etag: "\"2-0-1\"", path: "/nonexistent"),
    ])

    private func reply(_ method: String = "GET", _ name: String = "a.jpg", token: String? = "t", headers: [(String, String)] = []) -> DataPlaneReply {
        var fields = HTTPHeaders()
        if let token { fields.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { fields.add(name: name, value: value) }
        let request = HTTPRequestHead(method: method, target: HTTPMediaPath.target(forDeviceName: name), headers: fields)
        return DataPlaneResponder.reply(to: request, token: "t", catalog: catalog)
    }

    @Test func authorizationComesFirst() {
        #expect(reply(token: nil).head.status == 401)
        #expect(reply(token: "wrong").head.status == 401)
        #expect(reply("GET", "missing", token: nil).head.status == 401)
        #expect(reply(token: nil).body == nil)
        #expect(reply(token: nil).head.headers["Content-Length"] == "0")
    }

    @Test func statusesFollowTheProtocol() {
        #expect(reply().head.status == 200)
        #expect(reply().body?.range == 0..<100)
        #expect(reply("GET", "missing").head.status == 404)
        #expect(reply("POST").head.status == 405)
        #expect(reply("HEAD").head.status == 200)
        #expect(reply("HEAD").body == nil)
        #expect(reply("HEAD").head.headers["Content-Length"] == "100")
    }

    @Test func rangesAndIfRange() {
        let partial = reply(headers: [("Range", "bytes=10-19")])
        #expect(partial.head.status == 206)
        #expect(partial.body?.range == 10..<20)
        #expect(partial.head.headers["Content-Range"] == "bytes 10-19/100")
        #expect(partial.head.headers["Content-Length"] == "10")
        let unsatisfiable = reply(headers: [("Range", "bytes=100-")])
        #expect(unsatisfiable.head.status == 416)
        #expect(unsatisfiable.head.headers["Content-Range"] == "bytes */100")
        #expect(reply(headers: [("Range", "bytes=1-2,5-6")]).head.status == 200)
        #expect(reply(headers: [("Range", "bytes=10-"), ("If-Range", "\"1-100-1\"")]).head.status == 206)
        #expect(reply(headers: [("Range", "bytes=10-"), ("If-Range", "\"1-100-0\"")]).head.status == 200)
        #expect(reply(headers: [("Range", "bytes=10-"), ("If-Range", "W/\"1-100-1\"")]).head.status == 200)
        #expect(reply("GET", "empty").head.status == 200)
        #expect(reply("GET", "empty").body == nil)
        #expect(reply("GET", "empty", headers: [("Range", "bytes=0-")]).head.status == 416)
    }

    @Test func connectionCloseIsHonoured() {
        let closing = reply(headers: [("Connection", "close")])
        #expect(closing.closeAfter)
        #expect(closing.head.headers["Connection"] == "close")
        #expect(!reply().closeAfter)
    }

    @Test func etagsEncodeHostileIds() {
        #expect(DataPlaneFile.etag(id: "a\"b c", size: 5, generation: 9) == "\"a%22b%20c-5-9\"")
    }
}
