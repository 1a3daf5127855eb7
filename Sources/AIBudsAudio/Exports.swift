// The audio value types (`PCMAudio`, `AudioError`, `ReceivedAudioFrame`) live in AIBudsPCM, which
// links no library, so that the device core can name them; `import AIBudsAudio` brings them too.
@_exported import AIBudsPCM
