#!/usr/bin/env python3
"""A tiny stand-in push service + user agent for tests.

It owns one subscription (a P-256 ECDH key pair and a 16-byte auth secret),
accepts RFC 8030 push requests at POST /push/<id>, checks the RFC 8292 VAPID
Authorization header, decrypts the RFC 8291 / RFC 8188 "aes128gcm" body and
appends every outcome as one JSON line to --messages-out:

    {"payload": "<text>", "headers": {...}, "vapidOk": true, "status": 201, ...}
    {"error": "<reason>", "headers": {...}, "vapidOk": false, "status": 400, ...}

Decryption and JWT checks are written here from the RFCs with the
`cryptography` package's primitives (ECDH, ECDSA, AES-GCM) and the standard
library's hmac; nothing is shared with the Swift implementation under test.

usage:
  python3 push_receiver.py --port 0 --subscription-out sub.json --messages-out msgs.jsonl
      [--host 127.0.0.1] [--private-key B64URL] [--auth B64URL] [--id ID]
  python3 push_receiver.py --self-test     # decrypts the RFC 8291 section 5 vector
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import secrets
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

MAX_BODY = 4096           # RFC 8291 section 4: push services must accept 4096-byte bodies
MAX_VAPID_LIFETIME = 24 * 3600


class Reject(Exception):
    """A request the push service refuses with 400."""


def b64u_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def b64u_decode(text: str) -> bytes:
    text = text.strip()
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=")
    if not set(text) <= allowed:
        raise ValueError("not base64url")
    text = text.rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hkdf_sha256(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 HKDF with SHA-256 (extract then expand)."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def public_bytes(key) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def decrypt_aes128gcm(body: bytes, ua_private, auth_secret: bytes) -> bytes:
    """The user agent's side of RFC 8291 (section 3) over RFC 8188 (section 2)."""
    if len(body) < 21:
        raise Reject("body shorter than the aes128gcm header")
    salt = body[0:16]
    rs = int.from_bytes(body[16:20], "big")
    idlen = body[20]
    if rs < 18:
        raise Reject(f"record size {rs} < 18")
    if idlen != 65:
        raise Reject(f"keyid length {idlen}, expected 65 (uncompressed P-256 point)")
    if len(body) < 21 + idlen:
        raise Reject("body shorter than its keyid")
    as_public_bytes = body[21:21 + idlen]
    records = body[21 + idlen:]
    if len(records) > rs:
        raise Reject("more than one record (a push message must be a single record)")
    if len(records) < 17:
        raise Reject("record shorter than tag + delimiter")
    try:
        as_public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_public_bytes)
    except ValueError:
        raise Reject("keyid is not a P-256 point")

    ecdh_secret = ua_private.exchange(ec.ECDH(), as_public)
    ua_public_bytes = public_bytes(ua_private)
    key_info = b"WebPush: info\x00" + ua_public_bytes + as_public_bytes
    ikm = hkdf_sha256(auth_secret, ecdh_secret, key_info, 32)
    cek = hkdf_sha256(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf_sha256(salt, ikm, b"Content-Encoding: nonce\x00", 12)  # XOR with SEQ 0: unchanged

    try:
        padded = AESGCM(cek).decrypt(nonce, records, None)
    except InvalidTag:
        raise Reject("AES-GCM authentication failed (wrong keys or corrupted body)")
    stripped = padded.rstrip(b"\x00")
    if not stripped or stripped[-1] != 0x02:
        raise Reject("last record lacks the 0x02 padding delimiter")
    return stripped[:-1]


def parse_vapid(header_value: str):
    """Returns (token, k) from 'vapid t=<jwt>, k=<key>'."""
    if not header_value:
        raise Reject("missing Authorization header")
    scheme, _, params = header_value.partition(" ")
    if scheme.lower() != "vapid":
        raise Reject(f"Authorization scheme {scheme!r} is not vapid")
    fields = {}
    for part in params.split(","):
        name, eq, value = part.strip().partition("=")
        if not eq:
            raise Reject(f"malformed vapid parameter {part.strip()!r}")
        fields[name.strip().lower()] = value.strip()
    if "t" not in fields or "k" not in fields:
        raise Reject("vapid Authorization needs both t= and k=")
    return fields["t"], fields["k"]


def verify_vapid(header_value: str, origin: str, now: float) -> dict:
    """RFC 8292: ES256 JWT signed by k, aud = this service's origin, exp within 24 h."""
    token, k = parse_vapid(header_value)
    try:
        key_bytes = b64u_decode(k)
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key_bytes)
    except ValueError:
        raise Reject("k is not a base64url uncompressed P-256 public key")
    if len(key_bytes) != 65:
        raise Reject("k must be the 65-byte uncompressed point")
    parts = token.split(".")
    if len(parts) != 3:
        raise Reject("JWT does not have three parts")
    try:
        header = json.loads(b64u_decode(parts[0]))
        claims = json.loads(b64u_decode(parts[1]))
        raw_sig = b64u_decode(parts[2])
    except (ValueError, json.JSONDecodeError):
        raise Reject("JWT parts are not base64url JSON")
    if header.get("alg") != "ES256":
        raise Reject(f"JWT alg {header.get('alg')!r} is not ES256")
    if header.get("typ") not in (None, "JWT"):
        raise Reject(f"JWT typ {header.get('typ')!r}")
    if len(raw_sig) != 64:
        raise Reject(f"ES256 signature must be 64 bytes (r||s), got {len(raw_sig)}")
    der = encode_dss_signature(int.from_bytes(raw_sig[:32], "big"), int.from_bytes(raw_sig[32:], "big"))
    try:
        public_key.verify(der, (parts[0] + "." + parts[1]).encode("ascii"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise Reject("JWT signature does not verify with k")
    if claims.get("aud") != origin:
        raise Reject(f"JWT aud {claims.get('aud')!r} != {origin!r}")
    exp = claims.get("exp")
    if not isinstance(exp, int) or isinstance(exp, bool):
        raise Reject("JWT exp missing or not an integer")
    if exp <= now:
        raise Reject("JWT expired")
    if exp > now + MAX_VAPID_LIFETIME:
        raise Reject("JWT exp more than 24 hours ahead")
    sub = claims.get("sub")
    if not isinstance(sub, str) or not (sub.startswith("mailto:") or sub.startswith("https:")):
        raise Reject(f"JWT sub {sub!r} is not a mailto: or https: URI")
    return {"aud": claims["aud"], "exp": exp, "sub": sub, "k": k}


class Receiver:
    def __init__(self, args):
        if args.private_key:
            scalar = int.from_bytes(b64u_decode(args.private_key), "big")
            self.private_key = ec.derive_private_key(scalar, ec.SECP256R1())
        else:
            self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = b64u_decode(args.auth) if args.auth else os.urandom(16)
        if len(self.auth) != 16:
            sys.exit("--auth must decode to 16 bytes")
        self.sub_id = args.id or secrets.token_urlsafe(12)
        self.messages_out = args.messages_out
        self.lock = threading.Lock()
        self.origin = None

    def record(self, entry: dict):
        line = json.dumps(entry, ensure_ascii=False)
        with self.lock, open(self.messages_out, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def make_handler(rx: Receiver):
    class Handler(BaseHTTPRequestHandler):
        server_version = "push-receiver/1"

        def log_message(self, fmt, *a):
            sys.stderr.write("push_receiver: " + (fmt % a) + "\n")

        def answer(self, status: int, text: str = ""):
            data = text.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            if status == 201:
                self.send_header("Location", f"{rx.origin}/message/{secrets.token_urlsafe(8)}")
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            headers = {k: v for k, v in self.headers.items()}
            entry = {"path": self.path, "headers": headers, "vapidOk": False}
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
            entry["bodyBytes"] = len(body)
            if self.path != f"/push/{rx.sub_id}":
                entry.update(status=404, error="unknown subscription")
                rx.record(entry)
                return self.answer(404, "unknown subscription\n")
            try:
                ttl = self.headers.get("TTL")
                if ttl is None:
                    raise Reject("missing TTL header")
                if not ttl.strip().isdigit():
                    raise Reject(f"TTL {ttl!r} is not a non-negative integer")
                entry["vapid"] = verify_vapid(self.headers.get("Authorization", ""), rx.origin, time.time())
                entry["vapidOk"] = True
                if (self.headers.get("Content-Encoding") or "").strip().lower() != "aes128gcm":
                    raise Reject("Content-Encoding is not aes128gcm")
                if len(body) > MAX_BODY:
                    raise Reject(f"body of {len(body)} bytes exceeds {MAX_BODY}")
                plaintext = decrypt_aes128gcm(body, rx.private_key, rx.auth)
                try:
                    entry["payload"] = plaintext.decode("utf-8")
                except UnicodeDecodeError:
                    entry["payload"] = None
                    entry["payloadBase64URL"] = b64u_encode(plaintext)
            except Reject as reject:
                entry.update(status=400, error=str(reject))
                rx.record(entry)
                sys.stderr.write(f"push_receiver: 400 {reject}\n")
                return self.answer(400, f"{reject}\n")
            entry["status"] = 201
            rx.record(entry)
            return self.answer(201)

        def do_GET(self):
            self.answer(404 if self.path != "/health" else 200, "ok\n" if self.path == "/health" else "")

    return Handler


def self_test() -> int:
    """Decrypts the RFC 8291 section 5 message with the appendix A keys."""
    ua = ec.derive_private_key(
        int.from_bytes(b64u_decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"), "big"), ec.SECP256R1())
    assert b64u_encode(public_bytes(ua)) == (
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
    body = b64u_decode(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8"
        "wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    plaintext = decrypt_aes128gcm(body, ua, b64u_decode("BTBZMqHH6r4Tts7J_aSIgg"))
    assert plaintext == b"When I grow up, I want to be a watermelon", plaintext
    print("self-test: RFC 8291 section 5 vector decrypts to", repr(plaintext.decode()))
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0 picks a free port")
    p.add_argument("--subscription-out", help="where to write the subscription JSON once listening")
    p.add_argument("--messages-out", help="JSON-lines file every request is appended to")
    p.add_argument("--private-key", help="subscriber ECDH private scalar, base64url (default: random)")
    p.add_argument("--auth", help="16-byte auth secret, base64url (default: random)")
    p.add_argument("--id", help="subscription id in the endpoint path (default: random)")
    p.add_argument("--self-test", action="store_true")
    args = p.parse_args()
    if args.self_test:
        return self_test()
    if not args.subscription_out or not args.messages_out:
        p.error("--subscription-out and --messages-out are required")

    rx = Receiver(args)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(rx))  # bound and listening
    host, port = server.server_address[:2]
    shown_host = f"[{host}]" if ":" in host else host
    rx.origin = f"http://{shown_host}:{port}"

    subscription = {
        "endpoint": f"{rx.origin}/push/{rx.sub_id}",
        "keys": {"p256dh": b64u_encode(public_bytes(rx.private_key)), "auth": b64u_encode(rx.auth)},
    }
    tmp = args.subscription_out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(subscription, f)
    os.replace(tmp, args.subscription_out)  # appears atomically, only once listening
    print(json.dumps(subscription), flush=True)

    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown, daemon=True).start())
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
