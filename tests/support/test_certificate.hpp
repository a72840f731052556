#pragma once
// Self-signed certificates made at test time with OpenSSL, written as PEM files, so that TLS
// tests need no key material in the repository.

#include <filesystem>
#include <string>

namespace petstore::tests {

// write_self_signed_certificate: a fresh P-256 key and a certificate for `common_name`, valid
// for a day, written to `certificate` and `private_key`. Throws std::runtime_error on failure.
void write_self_signed_certificate(const std::string& common_name,
                                   const std::filesystem::path& certificate,
                                   const std::filesystem::path& private_key);

}  // namespace petstore::tests
