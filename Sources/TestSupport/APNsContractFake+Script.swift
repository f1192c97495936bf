extension APNsContractFake {
    /// The server: arguments STATE_DIR KEY_ID TEAM_ID TOPICS. Prints its port, then serves each
    /// connection on a thread; requests go to STATE_DIR/requests.json, faults come from
    /// STATE_DIR/faults.json (consumed in order).
    static let script = #"""
import base64, json, os, socket, ssl, sys, threading, time, uuid
import h2.config, h2.connection, h2.events
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.serialization import load_pem_public_key

state, key_id, team_id, topics = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
public_key = load_pem_public_key(open(os.path.join(state, "provider.pem"), "rb").read())
lock = threading.Lock()
PUSH_TYPES = {"alert", "background", "controls", "location", "voip", "complication", "fileprovider",
              "liveactivity", "mdm", "pushtotalk", "widgets"}

def write_json(path, value):
    with open(path + ".tmp", "w") as handle:
        json.dump(value, handle)
    os.replace(path + ".tmp", path)

def record(entry):
    with lock:
        path = os.path.join(state, "requests.json")
        entries = json.load(open(path)) if os.path.exists(path) else []
        entries.append(entry)
        write_json(path, entries)

def next_fault():
    with lock:
        path = os.path.join(state, "faults.json")
        if not os.path.exists(path):
            return None
        faults = json.load(open(path))
        if not faults:
            return None
        write_json(path, faults[1:])
        return faults[0]

def unpad(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

def check_token(authorization, entry):
    if not authorization:
        return "MissingProviderToken"
    if not authorization.startswith("bearer "):
        return "InvalidProviderToken"
    parts = authorization[len("bearer "):].split(".")
    if len(parts) != 3:
        return "InvalidProviderToken"
    try:
        header, claims, signature = json.loads(unpad(parts[0])), json.loads(unpad(parts[1])), unpad(parts[2])
    except Exception:
        return "InvalidProviderToken"
    if header.get("alg") != "ES256" or header.get("kid") != key_id or claims.get("iss") != team_id or len(signature) != 64:
        return "InvalidProviderToken"
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    try:
        public_key.verify(utils.encode_dss_signature(r, s), (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
    except Exception:
        return "InvalidProviderToken"
    iat = claims.get("iat")
    if not isinstance(iat, int) or iat > time.time() + 300:
        return "InvalidProviderToken"
    if iat < time.time() - 3600:
        return "ExpiredProviderToken"
    entry.update(kid=header["kid"], iss=claims["iss"], iat=iat)
    return None

def check(headers, body, entry):
    if headers.get(":method") != "POST":
        return 405, "MethodNotAllowed"
    path = headers.get(":path", "")
    if not path.startswith("/3/device/"):
        return 404, "BadPath"
    token = path[len("/3/device/"):]
    if not token or len(token) % 2 or any(c not in "0123456789abcdefABCDEF" for c in token):
        return 400, "BadDeviceToken"
    reason = check_token(headers.get("authorization"), entry)
    if reason:
        return 403, reason
    topic = headers.get("apns-topic")
    if not topic:
        return 400, "MissingTopic"
    if topic not in topics:
        return 400, "TopicDisallowed"
    push_type = headers.get("apns-push-type", "alert")
    if push_type not in PUSH_TYPES:
        return 400, "InvalidPushType"
    priority = headers.get("apns-priority", "10")
    if priority not in ("10", "5", "1") or (push_type == "background" and priority == "10"):
        return 400, "BadPriority"
    if not headers.get("apns-expiration", "0").isdigit():
        return 400, "BadExpirationDate"
    if not body:
        return 400, "PayloadEmpty"
    if len(body) > (5120 if push_type == "voip" else 4096):
        return 413, "PayloadTooLarge"
    try:
        payload = json.loads(body)
    except Exception:
        entry["violations"].append("the payload is not JSON")
        return 400, "BadPayload"
    if not isinstance(payload, dict) or not isinstance(payload.get("aps"), dict):
        entry["violations"].append("the payload has no 'aps' dictionary")
        return 400, "BadPayload"
    return 200, None

def respond(connection, stream, headers, body, duplicated):
    entry = {"protocol": "h2", "method": headers.get(":method"), "path": headers.get(":path"),
             "headers": {k: v for k, v in headers.items() if not k.startswith(":")},
             "payload": body.decode("utf-8", "replace"), "violations": []}
    status, reason = (400, "DuplicateHeaders") if duplicated else check(headers, body, entry)
    timestamp = None
    if status == 200:
        fault = next_fault()
        if fault:
            status, reason, timestamp = fault["status"], fault["reason"], fault.get("timestamp")
    entry.update(status=status, reason=reason)
    record(entry)
    apns_id = headers.get("apns-id") or str(uuid.uuid4()).upper()
    answer = [(":status", str(status)), ("apns-id", apns_id)]
    if status == 200:
        connection.send_headers(stream, answer, end_stream=True)
        return
    content = {"reason": reason}
    if timestamp is not None:
        content["timestamp"] = timestamp
    data = json.dumps(content).encode()
    connection.send_headers(stream, answer + [("content-type", "application/json"), ("content-length", str(len(data)))])
    connection.send_data(stream, data, end_stream=True)

def serve_h2(tls):
    connection = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    connection.initiate_connection()
    tls.sendall(connection.data_to_send())
    streams = {}
    while True:
        data = tls.recv(65535)
        if not data:
            return
        for event in connection.receive_data(data):
            if isinstance(event, h2.events.RequestReceived):
                names = [name for name, _ in event.headers]
                streams[event.stream_id] = [dict(event.headers), b"", len(names) != len(set(names))]
            elif isinstance(event, h2.events.DataReceived):
                streams[event.stream_id][1] += event.data
                connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                headers, body, duplicated = streams.pop(event.stream_id)
                respond(connection, event.stream_id, headers, body, duplicated)
            elif isinstance(event, h2.events.ConnectionTerminated):
                tls.sendall(connection.data_to_send())
                return
        out = connection.data_to_send()
        if out:
            tls.sendall(out)

def reject_http1(tls):
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = tls.recv(65535)
        if not chunk:
            break
        request += chunk
    line = request.split(b"\r\n", 1)[0].decode("latin-1")
    record({"protocol": "http/1.1", "method": line.split(" ")[0] if line else None, "path": None, "headers": {},
            "payload": None, "status": 505, "reason": "HTTP/2 required", "violations": ["HTTP/1.1 instead of HTTP/2"]})
    tls.sendall(b"HTTP/1.1 505 HTTP Version Not Supported\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")

def handle(client, context):
    try:
        tls = context.wrap_socket(client, server_side=True)
    except Exception:
        client.close()
        return
    try:
        if tls.selected_alpn_protocol() == "h2":
            serve_h2(tls)
        else:
            reject_http1(tls)
    except Exception:
        pass
    finally:
        tls.close()

context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.minimum_version = ssl.TLSVersion.TLSv1_2
context.load_cert_chain(os.path.join(state, "server.pem"), os.path.join(state, "server-key.pem"))
context.set_alpn_protocols(["h2", "http/1.1"])
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.bind(("127.0.0.1", 0))
listener.listen(16)
print(listener.getsockname()[1], flush=True)
while True:
    client, _ = listener.accept()
    threading.Thread(target=handle, args=(client, context), daemon=True).start()
"""#
}
