#if os(Linux)
/// The platform's HTTP client: libcurl on Linux (`CurlHTTPClient`), loaded at the first request.
/// `URLSessionHTTPClient` (the URLSessionHTTP module) builds and is tested on Linux too, but the
/// `slipway` binary does not link it there: FoundationNetworking would load libcurl and some
/// thirty libraries behind it at every start.
public typealias SystemHTTPClient = CurlHTTPClient
#else
@_exported import URLSessionHTTP

/// The platform's HTTP client: URLSession on macOS (`URLSessionHTTPClient`, from URLSessionHTTP).
public typealias SystemHTTPClient = URLSessionHTTPClient
#endif
