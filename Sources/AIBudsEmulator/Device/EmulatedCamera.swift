/// The emulated glasses' camera as the device describes it.
public enum EmulatedCamera {
    /// The built-in lens profile (Gyroflow's lens-profile JSON): the lens the rendered videos are
    /// seen through, a fisheye calibrated at 1920×1080 with f = 1100 px and a 20 ms top-to-bottom
    /// rolling-shutter readout (the SDK's `LensProfile.aibudsGlasses`).
    public static let lensProfileJSON = """
        {
          "name": "AIBuds glasses",
          "camera_brand": "AIBuds",
          "camera_model": "Glasses",
          "lens_model": "built-in",
          "calib_dimension": { "w": 1920, "h": 1080 },
          "orig_dimension": { "w": 1920, "h": 1080 },
          "frame_readout_time": 20.0,
          "frame_readout_direction": 0,
          "distortion_model": "opencv_fisheye",
          "use_opencv_fisheye": true,
          "fisheye_params": {
            "camera_matrix": [[1100.0, 0.0, 960.0], [0.0, 1100.0, 540.0], [0.0, 0.0, 1.0]],
            "distortion_coeffs": [0.05, -0.01, 0.002, 0.0]
          }
        }
        """

    /// The most profile bytes one Capture `lens profile` answer carries (fits every link's SMP packet).
    static let lensProfilePart = 256
}
