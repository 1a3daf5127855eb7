"""OpenAI-style speech endpoint (POST /v1/audio/speech) in front of Piper's Python API.

Piper ships an HTTP server of its own, but with its own request shape (POST / with JSON text);
this adapter gives the OpenAI-compatible provider the API that clouds and vLLM-style servers speak:
a JSON body {"model", "input", "voice", "response_format": "wav"} answered with a WAV file.
GET /health answers {"status": "ok"} once the voice is loaded.

Usage: python piper_speech_server.py --model VOICE.onnx --host 127.0.0.1 --port PORT
"""

import argparse
import io
import json
import wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Lock

from piper import PiperVoice


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    voice = PiperVoice.load(args.model)
    lock = Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def reply(self, status, body, content_type):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def error(self, status, message):
            body = json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode()
            self.reply(status, body, "application/json")

        def do_GET(self):
            if self.path == "/health":
                self.reply(200, b'{"status":"ok"}', "application/json")
            else:
                self.error(404, "not found")

        def do_POST(self):
            # The body is read before any answer: on a kept-alive connection, a body left unread
            # would be parsed as the next request (its JSON as a method: 501).
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                self.close_connection = True
                return self.error(400, "Content-Length is not a number")
            if length < 0 or length > 1 << 20:
                self.close_connection = True
                return self.error(413, "the body is over 1 MiB")
            raw = self.rfile.read(length)
            if self.path.rstrip("/") != "/v1/audio/speech":
                return self.error(404, "not found")
            try:
                request = json.loads(raw or b"{}")
            except (ValueError, json.JSONDecodeError):
                return self.error(400, "the body is not JSON")
            if not isinstance(request, dict):
                return self.error(400, "the body is not a JSON object")
            text = request.get("input")
            if not isinstance(text, str) or not text.strip():
                return self.error(400, "'input' must be non-empty text")
            if request.get("response_format", "wav") != "wav":
                return self.error(400, "only response_format 'wav' is served")
            out = io.BytesIO()
            with lock, wave.open(out, "wb") as wav:
                voice.synthesize_wav(text, wav)
            self.reply(200, out.getvalue(), "audio/wav")

    ThreadingHTTPServer((args.host, args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
