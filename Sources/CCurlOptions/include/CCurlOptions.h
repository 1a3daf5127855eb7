// Typed wrappers of libcurl's variadic calls (curl_easy_setopt, curl_easy_getinfo), which Swift
// cannot call directly: one function per argument type the project's HTTP client (AIBudsHTTPClient)
// passes.
#ifndef CCURLOPTIONS_H
#define CCURLOPTIONS_H
#include <curl/curl.h>

typedef size_t (*aibuds_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*aibuds_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                             curl_off_t ultotal, curl_off_t ulnow);

CURLcode aibuds_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode aibuds_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode aibuds_curl_set_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode aibuds_curl_set_write(CURL *handle, aibuds_curl_data_callback callback, void *context);
CURLcode aibuds_curl_set_header(CURL *handle, aibuds_curl_data_callback callback, void *context);
CURLcode aibuds_curl_set_progress(CURL *handle, aibuds_curl_progress_callback callback, void *context);
long aibuds_curl_response_code(CURL *handle);

#endif
