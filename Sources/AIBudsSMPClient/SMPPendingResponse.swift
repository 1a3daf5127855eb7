import AIBudsCBOR
import AIBudsWire
import Foundation

/// A request the client has sent, whose response can be awaited later (see `SMPClient.start`).
public struct SMPPendingResponse<Response: Decodable & Sendable>: Sendable {
    let exchange: SMPExchange

    /// Waits for the response and decodes it. Cancelling the waiting task abandons the request.
    ///
    /// - Throws: `SMPError`, as `SMPClient.send` does.
    public func response() async throws(SMPError) -> Response {
        let reply = try await exchange.reply()
        if let decoded = reply.decoded as? Response { return decoded }
        let map = reply.payload
        do {
            return try CBORDecoder().decode(Response.self, from: map)
        } catch {
            throw SMPError(.malformedResponse, "the response to \(exchange.request.label) does not decode", underlying: error)
        }
    }
}

/// One request in flight and what is needed to send it again as SMP v1.
struct SMPExchange: Sendable {
    /// What was asked, independent of sequence number and version.
    struct Request: Sendable {
        var group: UInt16
        var command: UInt8
        var operation: SMPOperation
        var payload: Data
        var label: String
        var timeout: Duration?
        /// Reads the response from its bytes when the caller's response type can (see `SMPReply`).
        var plainDecoder: PlainDecoder?
    }

    /// A `PlainPayloadDecodable` type's reading of a payload.
    typealias PlainDecoder = @Sendable (Data) -> (any Sendable)?

    let client: SMPClient
    let request: Request
    let id: UInt64
    let version: SMPVersion
    let promise: SMPReplyPromise

    /// Waits for the response payload, checks it for a device error, and falls back to SMP v1
    /// (sending the request again) when a v1-only device refused the v2 request.
    func payload() async throws(SMPError) -> CBOR {
        try await reply().payload
    }

    /// Waits for the response, checks it for a device error, and falls back to SMP v1 (sending
    /// the request again) when a v1-only device refused the v2 request.
    func reply() async throws(SMPError) -> SMPReply {
        var current = self
        while true {
            let outcome = await withTaskCancellationHandler {
                await current.promise.wait()
            } onCancel: { [client, id = current.id, label = request.label] in
                client.cancel(id: id, label: label)
            }
            let reply = try outcome.get()
            guard let error = SMPDeviceError.from(response: reply.payload, version: reply.header.version) else {
                return reply
            }
            guard current.version == .v2, reply.header.version == .v1 else {
                throw SMPError(.device(error), "\(request.label) failed on the device: \(error)")
            }
            client.fallBackToV1(after: request.label, rc: error.rc)
            current = try await client.begin(request, version: .v1)
        }
    }
}
