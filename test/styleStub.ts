// CSS imports have no meaning under Jest.
export default {};
