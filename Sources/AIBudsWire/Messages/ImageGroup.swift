import AIBudsMCUboot
import Foundation

// Messages of the Image management group (1), as Zephyr's img_mgmt specifies them. See
// docs/protocol.md §2, "Image management".

/// Image state read: every image slot the device has, with its version, hash and flags.
public typealias ImageStateReadRequest = SMPEmptyRequest<SMPCommand.ImageStateRead, ImageStateResponse>

/// Image state write: marks the image with `hash` for a test boot (`confirm` false), or makes an
/// image permanent (`confirm` true; without `hash`, the running one).
public struct ImageStateWriteRequest: SMPRequest, Equatable {
    /// The device answers with the slots' new states.
    public typealias Response = ImageStateResponse

    /// The SHA-256 from the image's TLV area (not the hash of the file).
    public var hash: Data?
    /// True to confirm (make permanent), false or absent to test once.
    public var confirm: Bool?

    /// Creates the request that tests (`confirm` false) or confirms the image with `hash`.
    public init(hash: Data?, confirm: Bool?) {
        self.hash = hash
        self.confirm = confirm
    }
}

/// The answer to an Image state read or write.
public struct ImageStateResponse: Codable, Sendable, Equatable {
    /// One entry per occupied slot.
    public var images: [ImageSlotState]
    /// Unused by Zephyr; 0 when sent.
    public var splitStatus: Int?

    /// Creates the answer listing `images`, as the emulator sends it.
    public init(images: [ImageSlotState], splitStatus: Int? = 0) {
        self.images = images
        self.splitStatus = splitStatus
    }
}

/// The state of the image in one slot; Zephyr leaves false flags out.
public struct ImageSlotState: Codable, Sendable, Equatable {
    /// The image number (0 the main firmware, 1 the camera's); nil means 0.
    public var image: UInt64?
    /// 0 the primary (running) slot, 1 the secondary (upload) slot.
    public var slot: UInt64
    /// `major.minor.revision`, with `.build` when the build number is not 0.
    public var version: String
    /// The SHA-256 from the image's TLV area.
    public var hash: Data?
    /// The image can boot.
    public var bootable: Bool?
    /// The image is swapped in at the next reset.
    public var pending: Bool?
    /// The image is confirmed (stays after resets).
    public var confirmed: Bool?
    /// The image runs now.
    public var active: Bool?
    /// The pending image stays after the next reset without a confirmation.
    public var permanent: Bool?

    /// Creates the state of one slot; false flags are sent as absent.
    public init(image: UInt64?, slot: UInt64, version: String, hash: Data?, bootable: Bool = false, pending: Bool = false,
                confirmed: Bool = false, active: Bool = false, permanent: Bool = false) {
        self.image = image
        self.slot = slot
        self.version = version
        self.hash = hash
        self.bootable = bootable ? true : nil
        self.pending = pending ? true : nil
        self.confirmed = confirmed ? true : nil
        self.active = active ? true : nil
        self.permanent = permanent ? true : nil
    }

    /// The image number, absent meaning 0.
    public var imageNumber: UInt64 { image ?? 0 }
    /// Whether the image is swapped in at the next reset.
    public var isPending: Bool { pending ?? false }
    /// Whether the image is confirmed.
    public var isConfirmed: Bool { confirmed ?? false }
    /// Whether the image runs now.
    public var isActive: Bool { active ?? false }
    /// Whether the pending image becomes permanent at the next reset.
    public var isPermanent: Bool { permanent ?? false }
}

/// Image upload: one chunk of an MCUboot image for the secondary slot of `image`. The chunk at
/// `off` 0 carries `len`, and optionally `image`, `sha` (of the whole file, which also names the
/// upload so that it can be resumed) and `upgrade`.
public struct ImageUploadRequest: SMPRequest, Equatable {
    /// The device answers with the next offset it expects.
    public typealias Response = ImageUploadResponse

    /// The image number (first chunk only; absent means 0).
    public var image: UInt64?
    /// The file size (first chunk only).
    public var len: UInt64?
    /// The offset of `data`.
    public var off: UInt64
    /// The SHA-256 of the whole file (first chunk only).
    public var sha: Data?
    /// The bytes of this chunk.
    public var data: Data
    /// True to refuse an image whose version is not newer than the running one (first chunk only).
    public var upgrade: Bool?

    /// Creates the chunk `data` at `off`; the first chunk also carries the whole upload's fields.
    public init(image: UInt64? = nil, len: UInt64? = nil, off: UInt64, sha: Data? = nil, data: Data, upgrade: Bool? = nil) {
        self.image = image
        self.len = len
        self.off = off
        self.sha = sha
        self.data = data
        self.upgrade = upgrade
    }
}

/// The answer to ``ImageUploadRequest``.
public struct ImageUploadResponse: Codable, Sendable, Equatable {
    /// The next offset the device expects (the file size when complete).
    public var off: UInt64
    /// On the last chunk, when `sha` was given: whether the received bytes have that SHA-256.
    public var match: Bool?

    /// Creates the answer with the next offset the device expects, as the emulator sends it.
    public init(off: UInt64, match: Bool? = nil) {
        self.off = off
        self.match = match
    }
}

/// Image erase: empties the secondary slot of image 0 (or the slot number given, Zephyr's
/// numbering: 1 image 0's secondary, 3 image 1's).
public struct ImageEraseRequest: SMPRequest, Equatable {
    /// The (empty) answer.
    public typealias Response = SMPEmptyResponse

    /// The slot to erase; absent means 1 (image 0's secondary).
    public var slot: UInt64?

    /// Creates the request that erases `slot` (nil: slot 1).
    public init(slot: UInt64? = nil) {
        self.slot = slot
    }
}

/// Image slot info: each image's slots and their sizes.
public typealias ImageSlotInfoRequest = SMPEmptyRequest<SMPCommand.ImageSlotInfo, ImageSlotInfoResponse>

/// The answer to ``ImageSlotInfoRequest``.
public struct ImageSlotInfoResponse: Codable, Sendable, Equatable {
    /// One entry per image.
    public var images: [ImageSlotInfo]

    /// Creates the answer, as the emulator sends it.
    public init(images: [ImageSlotInfo]) {
        self.images = images
    }
}

/// One image's slots in ``ImageSlotInfoResponse``.
public struct ImageSlotInfo: Codable, Sendable, Equatable {
    /// The image number.
    public var image: UInt64
    /// Its slots (0 primary, 1 secondary).
    public var slots: [ImageSlotSize]
    /// The largest image file the secondary slot takes.
    public var maxImageSize: UInt64?

    /// The wire names (Zephyr's).
    enum CodingKeys: String, CodingKey {
        case image, slots
        case maxImageSize = "max_image_size"
    }

    /// Creates the description of image `image` with its slots.
    public init(image: UInt64, slots: [ImageSlotSize], maxImageSize: UInt64?) {
        self.image = image
        self.slots = slots
        self.maxImageSize = maxImageSize
    }
}

/// One slot's size in ``ImageSlotInfo``.
public struct ImageSlotSize: Codable, Sendable, Equatable {
    /// The slot within the image (0 primary, 1 secondary).
    public var slot: UInt64
    /// The slot's size in bytes.
    public var size: UInt64
    /// The image number an upload to this slot uses, for the secondary slot.
    public var uploadImageID: UInt64?

    /// The wire names (Zephyr's).
    enum CodingKeys: String, CodingKey {
        case slot, size
        case uploadImageID = "upload_image_id"
    }

    /// Creates the description of one slot.
    public init(slot: UInt64, size: UInt64, uploadImageID: UInt64?) {
        self.slot = slot
        self.size = size
        self.uploadImageID = uploadImageID
    }
}

/// Zephyr's `IMG_MGMT_ERR_*` codes: the `rc` of an Image group error in the SMP v2 `err` shape.
public enum ImageManagementError: Int, Error, Sendable, CaseIterable {
    /// IMG_MGMT_ERR_OK.
    case ok = 0
    /// IMG_MGMT_ERR_UNKNOWN.
    case unknown = 1
    /// IMG_MGMT_ERR_FLASH_CONFIG_QUERY_FAIL.
    case flashConfigQueryFail = 2
    /// IMG_MGMT_ERR_NO_IMAGE: the slot is empty.
    case noImage = 3
    /// IMG_MGMT_ERR_NO_TLVS: the image has no TLV area.
    case noTLVs = 4
    /// IMG_MGMT_ERR_INVALID_TLV: a TLV's type or length is wrong.
    case invalidTLV = 5
    /// IMG_MGMT_ERR_TLV_MULTIPLE_HASHES_FOUND.
    case multipleHashes = 6
    /// IMG_MGMT_ERR_TLV_INVALID_SIZE: the TLV area's size is wrong.
    case tlvInvalidSize = 7
    /// IMG_MGMT_ERR_HASH_NOT_FOUND: no image has that hash, or the image has no SHA-256 TLV.
    case hashNotFound = 8
    /// IMG_MGMT_ERR_NO_FREE_SLOT: the secondary slot holds a pending or the revert image.
    case noFreeSlot = 9
    /// IMG_MGMT_ERR_FLASH_OPEN_FAILED.
    case flashOpenFailed = 10
    /// IMG_MGMT_ERR_FLASH_READ_FAILED.
    case flashReadFailed = 11
    /// IMG_MGMT_ERR_FLASH_WRITE_FAILED.
    case flashWriteFailed = 12
    /// IMG_MGMT_ERR_FLASH_ERASE_FAILED.
    case flashEraseFailed = 13
    /// IMG_MGMT_ERR_INVALID_SLOT: no such image or slot.
    case invalidSlot = 14
    /// IMG_MGMT_ERR_NO_FREE_MEMORY.
    case noFreeMemory = 15
    /// IMG_MGMT_ERR_FLASH_CONTEXT_ALREADY_SET.
    case flashContextAlreadySet = 16
    /// IMG_MGMT_ERR_FLASH_CONTEXT_NOT_SET: a chunk past 0 with no upload in progress.
    case flashContextNotSet = 17
    /// IMG_MGMT_ERR_FLASH_AREA_DEVICE_NULL.
    case flashAreaDeviceNull = 18
    /// IMG_MGMT_ERR_INVALID_PAGE_OFFSET.
    case invalidPageOffset = 19
    /// IMG_MGMT_ERR_INVALID_OFFSET: `off` is missing.
    case invalidOffset = 20
    /// IMG_MGMT_ERR_INVALID_LENGTH: `len` is missing or 0.
    case invalidLength = 21
    /// IMG_MGMT_ERR_INVALID_IMAGE_HEADER: shorter than an image header.
    case invalidImageHeader = 22
    /// IMG_MGMT_ERR_INVALID_IMAGE_HEADER_MAGIC: not an MCUboot image.
    case invalidImageHeaderMagic = 23
    /// IMG_MGMT_ERR_INVALID_HASH: a hash of the wrong size, or bytes that do not have it.
    case invalidHash = 24
    /// IMG_MGMT_ERR_INVALID_FLASH_ADDRESS.
    case invalidFlashAddress = 25
    /// IMG_MGMT_ERR_VERSION_GET_FAILED.
    case versionGetFailed = 26
    /// IMG_MGMT_ERR_CURRENT_VERSION_IS_NEWER: an `upgrade` upload of an image not newer.
    case currentVersionIsNewer = 27
    /// IMG_MGMT_ERR_IMAGE_ALREADY_PENDING.
    case imageAlreadyPending = 28
    /// IMG_MGMT_ERR_INVALID_IMAGE_VECTOR_TABLE.
    case invalidImageVectorTable = 29
    /// IMG_MGMT_ERR_INVALID_IMAGE_TOO_LARGE: larger than the slot.
    case imageTooLarge = 30
    /// IMG_MGMT_ERR_INVALID_IMAGE_DATA_OVERRUN: more bytes than `len`.
    case imageDataOverrun = 31
    /// IMG_MGMT_ERR_IMAGE_CONFIRMATION_DENIED.
    case confirmationDenied = 32
    /// IMG_MGMT_ERR_IMAGE_SETTING_TEST_TO_ACTIVE_DENIED: the running image cannot be tested.
    case testOfActiveDenied = 33
}

extension MCUbootImageError {
    /// The Image group code a device answers for this fault.
    public var imageManagementError: ImageManagementError {
        switch self {
        case .truncated: return .invalidImageHeader
        case .badMagic: return .invalidImageHeaderMagic
        case .noTLVs: return .noTLVs
        case .invalidTLV: return .invalidTLV
        case .multipleHashes: return .multipleHashes
        case .hashSize: return .tlvInvalidSize
        case .hashNotFound: return .hashNotFound
        case .hashMismatch: return .invalidHash
        }
    }
}
