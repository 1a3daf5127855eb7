/* SHA256_CTX's low-level functions are deprecated in OpenSSL 3 but kept: they are the only way to
   save and restore a digest's state (a resumed streamed upload continues its SHA-256). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>
