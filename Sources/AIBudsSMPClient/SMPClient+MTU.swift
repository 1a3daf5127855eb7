import AIBudsWire

extension SMPClient {
    /// Asks the device for its buffer size (OS `mcumgr params`) and uses it as the MTU, never above
    /// the transport's; returns the MTU now in use.
    @discardableResult
    public func negotiateMTU() async throws(SMPError) -> Int {
        let params = try await send(OSParamsRequest())
        setMTU(Int(clamping: params.bufSize))
        return mtu
    }
}
