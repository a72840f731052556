#include "bootstrap/commands.hpp"

int main(int argc, char** argv) { return petstore::bootstrap::run(argc, argv); }
