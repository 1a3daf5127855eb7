import AIBudsFoundation

/// The connection snippet of the vendor's architecture overview, verbatim: connect parameters
/// authenticating StarBurst and MltCloud with the product and channel ids of `configs`
/// (`STARBURST_PRODUCTID`, `MLTCLOUD_CHANNELID`), for user 199. Written once, as an app writes it
/// from that page, for the tests that build it and the tests that connect with it.
public func architectureSeedConnectParams(_ configs: [String: String]) -> ConnectParams {
    let params = ConnectParams()
    let auth = AIAuthParams()

    let starBurst = StarBurstAIAuthParams()
    starBurst.productId = configs["STARBURST_PRODUCTID"]
    auth.starburst = starBurst

    let mltCloud = MltCloudAIAuthParams()
    mltCloud.channelId = configs["MLTCLOUD_CHANNELID"]
    auth.mltcloud = mltCloud

    params.aiAuthParams = auth
    params.userId = "199"
    return params
}
